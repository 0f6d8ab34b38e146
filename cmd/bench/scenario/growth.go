package scenario

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// growth is what one run says about cost against tree size: each hot path beside the baseline
// measured in the same run. Zero: not measured in that run.
type growth struct {
	label      string
	namespaces int

	effectiveUS, primaryKeyUS float64 // depth 20, server time per call as a statement of its own
	apiTPS, floorTPS          float64 // archive/unarchive at 8 clients, pgbench
	updateMS, lagP99MS        float64 // effective_states after a change with 10k descendants: the update (p50), the lag through the syncer (p99)
	rebuildMS                 float64 // the whole table rebuilt (what every change cost before migration 015)
	importRate, floorRate     float64 // rows/s
}

// growthDepth is the depth the growth table compares the effective state at: the deepest the
// bench measures, where the cost of a lookup per level shows most.
const growthDepth = 20

func growthOf(r *Results) growth {
	g := growth{label: r.Label, namespaces: r.Data.Namespaces}
	if fn, pk := effectiveRun(r, growthDepth, EffectiveFunction), effectiveRun(r, growthDepth, EffectivePK); fn != nil && pk != nil {
		g.effectiveUS, g.primaryKeyUS = fn.LoopUSPerCall, pk.LoopUSPerCall
	}
	if t := r.Transitions; t != nil {
		w := transitionWorkloads[0].name
		if api, raw := t.find(w, MethodAPIPgbench, 8), t.find(w, MethodRawPgbench, 8); api != nil && raw != nil {
			g.apiTPS, g.floorTPS = api.TPS, raw.TPS
		}
	}
	if es := r.EffectiveStates; es != nil {
		for _, u := range es.Updates {
			if u.Descendants == 10_000 {
				g.updateMS = u.Latency.P50
			}
		}
		for _, l := range es.Lag {
			if l.Descendants == 10_000 {
				g.lagP99MS = l.Lag.P99
			}
		}
		for _, b := range es.Rebuilds {
			if b.Method == RebuildTable {
				g.rebuildMS = 1000 * b.Seconds
			}
		}
	}
	if i := r.Import; i != nil && i.Namespaces == r.Data.Namespaces {
		g.importRate, g.floorRate = i.RowsPerSecond, i.FloorRowsPerSecond
	}
	return g
}

// effectiveRun is the effective-state figure of one method at one depth, or nil.
func effectiveRun(r *Results, depth int, method string) *EffectiveRun {
	for i, e := range r.EffectiveState {
		if e.Depth == depth && e.Method == method {
			return &r.EffectiveState[i]
		}
	}
	return nil
}

// growths orders the runs by tree size.
func growths(runs []*Results) []growth {
	var out []growth
	for _, r := range runs {
		out = append(out, growthOf(r))
	}
	slices.SortFunc(out, func(a, b growth) int { return a.namespaces - b.namespaces })
	return out
}

// renderGrowth writes the growth table and the plot's image link (the plot is GrowthSVG, written
// beside the results files).
func renderGrowth(w io.Writer, runs []*Results) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	cell := func(ok bool, format string, a ...any) string {
		if !ok {
			return "–"
		}
		return fmt.Sprintf(format, a...)
	}
	p("\n## How costs grow with the tree\n\n")
	p("Each figure beside its baseline from the same run; – where that run did not measure it.\n\n")
	p("| namespaces | effective state at depth %d, µs per call: function / primary key | transitions/s at 8 clients: API / floor | lifecycle.effective_states after a change with 10k descendants: update p50 / lag p99 ms | whole rebuild ms | import rows/s: import / floor |\n",
		growthDepth)
	p("| --- | --- | --- | --- | --- | --- |\n")
	for _, g := range growths(runs) {
		p("| %s | %s | %s | %s | %s | %s |\n", thousands(g.namespaces),
			cell(g.primaryKeyUS > 0, "%.1f / %.1f (%.1f×)", g.effectiveUS, g.primaryKeyUS, ratio(g.effectiveUS, g.primaryKeyUS)),
			cell(g.floorTPS > 0, "%.0f / %.0f (%.0f%%)", g.apiTPS, g.floorTPS, 100*ratio(g.apiTPS, g.floorTPS)),
			cell(g.updateMS > 0, "%.1f / %.1f", g.updateMS, g.lagP99MS),
			cell(g.rebuildMS > 0, "%.0f", g.rebuildMS),
			cell(g.floorRate > 0, "%s / %s (%.0f%%)", thousands(int(g.importRate)), thousands(int(g.floorRate)), 100*ratio(g.importRate, g.floorRate)))
	}
	p("\n![Cost against tree size: each hot path as a multiple of its floor, and lifecycle.effective_states after one change against a whole rebuild](%s)\n", GrowthPlotName)
}

// GrowthPlotName is the plot's file, relative to the Markdown file it is rendered into.
const GrowthPlotName = "benchmarks/growth.svg"

// GrowthSVG draws cost against tree size (log scale, 100k to 10M namespaces): on the left each hot
// path as a multiple of its floor from the same run (lower is better: the effective state's time
// over a primary-key read's, the floor's transitions/s over the API's, the floor's import rate over
// the import's), on the right lifecycle.effective_states after one change with 10k descendants
// (the update, the lag through the syncer) against a whole rebuild, in ms on a log scale.
func GrowthSVG(runs []*Results) []byte {
	gs := growths(runs)
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	const w, h, pw, top, left, bottom = 880, 330, 400, 40, 60, 270
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	p(`<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	x := func(panel int, n int) float64 { // log10 of 1e5 … 1e7 across the panel
		return float64(panel*(pw+40)+left) + (math.Log10(float64(n))-5)/2*float64(pw-left-20)
	}
	type series struct {
		name, color string
		value       func(growth) float64
	}
	panel := func(i int, title string, ys func(float64) float64, ticks []float64, tickLabel func(float64) string, ss []series) {
		x0, x1 := float64(i*(pw+40)+left), float64(i*(pw+40)+pw-20)
		p(`<text x="%.0f" y="20" font-weight="bold">%s</text>`+"\n", x0-40, title)
		p(`<line x1="%.0f" y1="%d" x2="%.0f" y2="%d" stroke="black"/>`+"\n", x0, bottom, x1, bottom)
		p(`<line x1="%.0f" y1="%d" x2="%.0f" y2="%d" stroke="black"/>`+"\n", x0, top, x0, bottom)
		for _, n := range []int{100_000, 1_000_000, 10_000_000} {
			p(`<text x="%.0f" y="%d" text-anchor="middle">%s</text>`+"\n", x(i, n), bottom+16, map[int]string{100_000: "100k", 1_000_000: "1M", 10_000_000: "10M"}[n])
		}
		p(`<text x="%.0f" y="%d" text-anchor="middle">namespaces</text>`+"\n", (x0+x1)/2, bottom+32)
		for _, t := range ticks {
			p(`<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#ddd"/>`+"\n", x0, ys(t), x1, ys(t))
			p(`<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", x0-4, ys(t)+4, tickLabel(t))
		}
		for k, s := range ss {
			var pts []string
			for _, g := range gs {
				if v := s.value(g); v > 0 {
					pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i, g.namespaces), ys(v)))
				}
			}
			if len(pts) > 1 {
				p(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), s.color)
			}
			for _, pt := range pts {
				xy := strings.Split(pt, ",")
				p(`<circle cx="%s" cy="%s" r="4" fill="%s"/>`+"\n", xy[0], xy[1], s.color)
			}
			p(`<rect x="%.0f" y="%d" width="10" height="10" fill="%s"/><text x="%.0f" y="%d">%s</text>`+"\n",
				x0+10, top+2+16*k, s.color, x0+24, top+11+16*k, s.name)
		}
	}
	// Left: multiples of the floor, linear from 0.
	maxRatio := 1.0
	left3 := []series{
		{"effective state (d20) / primary-key read", "#1f77b4", func(g growth) float64 { return ratio(g.effectiveUS, g.primaryKeyUS) }},
		{"transition floor / API (8 clients)", "#d62728", func(g growth) float64 { return ratio(g.floorTPS, g.apiTPS) }},
		{"import floor / import rate", "#2ca02c", func(g growth) float64 { return ratio(g.floorRate, g.importRate) }},
	}
	for _, g := range gs {
		for _, s := range left3 {
			maxRatio = max(maxRatio, s.value(g))
		}
	}
	top2 := math.Ceil(maxRatio*1.1 + 2) // room for the legend
	panel(0, "Cost as a multiple of its floor (lower is better)",
		func(v float64) float64 { return bottom - v/top2*float64(bottom-top) },
		[]float64{0, math.Round(top2 / 4), math.Round(top2 / 2), math.Round(3 * top2 / 4)},
		func(v float64) string { return fmt.Sprintf("%.0f×", v) }, left3)
	// Right: milliseconds, log scale from 1 ms to 100 s.
	panel(1, "lifecycle.effective_states, 10k-descendant change (ms)",
		func(v float64) float64 { return bottom - (math.Log10(max(v, 1)))/5*float64(bottom-top) },
		[]float64{1, 10, 100, 1000, 10_000, 100_000},
		func(v float64) string { return thousands(int(v)) },
		[]series{
			{"update (p50)", "#1f77b4", func(g growth) float64 { return g.updateMS }},
			{"lag through the syncer (p99)", "#ff7f0e", func(g growth) float64 { return g.lagP99MS }},
			{"whole rebuild (before 015)", "#7f7f7f", func(g growth) float64 { return g.rebuildMS }},
		})
	p("</svg>\n")
	return []byte(b.String())
}
