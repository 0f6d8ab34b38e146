package scenario

import (
	"bytes"
	"strings"
	"testing"
)

// The growth table and plot put each run at its tree size, beside its own baselines: two runs
// draw a line per series, a figure a run did not measure is a dash and no point.
func TestGrowthComparesEachRunWithItsOwnBaselines(t *testing.T) {
	small := &Results{Label: "quick", Data: Data{Namespaces: 100_000},
		EffectiveState: []EffectiveRun{{Depth: 20, Method: EffectiveFunction, LoopUSPerCall: 16}, {Depth: 20, Method: EffectivePK, LoopUSPerCall: 2.5}},
		Import:         &ImportResult{Namespaces: 100_000, RowsPerSecond: 30_000, FloorRowsPerSecond: 90_000}}
	big := &Results{Label: "full", Data: Data{Namespaces: 1_000_000},
		EffectiveState: []EffectiveRun{{Depth: 20, Method: EffectiveFunction, LoopUSPerCall: 18}, {Depth: 20, Method: EffectivePK, LoopUSPerCall: 2}},
		Transitions:    &TransitionsInfo{Runs: []TransitionRun{{Workload: "archive/unarchive", Method: MethodAPIPgbench, Clients: 8, TPS: 2000}, {Workload: "archive/unarchive", Method: MethodRawPgbench, Clients: 8, TPS: 10_000}}}}
	var md bytes.Buffer
	renderGrowth(&md, []*Results{big, small}) // any order: rows by size
	table := md.String()
	for _, want := range []string{
		"| 100,000 | 16.0 / 2.5 (6.4×) | – | – | – | 30,000 / 90,000 (33%) |",
		"| 1,000,000 | 18.0 / 2.0 (9.0×) | 2000 / 10000 (20%) | – | – | – |",
		"](" + GrowthPlotName + ")",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("growth table lacks %q:\n%s", want, table)
		}
	}
	if strings.Index(table, "| 100,000 |") > strings.Index(table, "| 1,000,000 |") {
		t.Errorf("rows not ordered by size:\n%s", table)
	}
	svg := string(GrowthSVG([]*Results{small, big}))
	if n := strings.Count(svg, "<polyline"); n != 1 {
		t.Errorf("%d lines drawn, want one (the effective state, the only series both runs measured)", n)
	}
	if n := strings.Count(svg, "<circle"); n != 4 {
		t.Errorf("%d points drawn, want 4 (effective state twice, import and transitions once each)", n)
	}
}
