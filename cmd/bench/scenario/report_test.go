package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A scenario run on its own after the full run and kept beside it (benchmarks/full-adopt-check/)
// gives the target its figure and its file; one kept from before the run does not replace the
// run's own figure.
func TestATargetShowsItsLastMeasurementAndItsFile(t *testing.T) {
	dir := t.TempDir()
	run := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	write := func(path string, r *Results) {
		t.Helper()
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(seconds float64) *AdoptCheckResult {
		return &AdoptCheckResult{Legacy: 1_000_000, CheckSeconds: seconds, Rounds: []AdoptCheckRound{{}}}
	}
	write(filepath.Join(dir, "benchmarks", "full.json"), &Results{Label: "full", Finished: run, AdoptCheck: check(12)})
	write(filepath.Join(dir, "benchmarks", "full-adopt-check", "old.json"),
		&Results{Label: "full", Finished: run.Add(-time.Hour), AdoptCheck: check(30)})
	doc := filepath.Join(dir, "benchmarks.md")
	if err := os.WriteFile(doc, []byte("# x\n"+ReportBegin+ReportEnd+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	row := func() string {
		t.Helper()
		if _, err := UpdateDoc(doc, []string{filepath.Join(dir, "benchmarks", "full.json")}, true); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "| legacy_bridge_check at 1M") {
				return l
			}
		}
		t.Fatalf("no row for the check in:\n%s", b)
		return ""
	}
	if r := row(); !strings.Contains(r, "**missed**: 12.00 s") || strings.Contains(r, "old.json") {
		t.Fatalf("an older kept result replaced the run's figure: %s", r)
	}
	write(filepath.Join(dir, "benchmarks", "full-adopt-check", "new.json"),
		&Results{Label: "full", Finished: run.Add(time.Hour), AdoptCheck: check(7)})
	want := "**met**: 7.00 s (median of 1 rounds; check_invariants 0.00 s) ([benchmarks/full-adopt-check/new.json](benchmarks/full-adopt-check/new.json), 2026-11-25)"
	if r := row(); !strings.Contains(r, want) {
		t.Fatalf("the later kept result is not shown:\n got %s\nwant %s", r, want)
	}
}

// Missed names the targets a run measured and missed, and only those: a target met, or one the
// run did not measure (its scenario not run), is not a missed target.
func TestMissedListsTheTargetsTheRunMeasuredAndMissed(t *testing.T) {
	targets := []TargetCheck{
		{Name: "met", Target: "< 1 s", Measured: "0.5 s", Met: true},
		{Name: "missed", Target: "< 1 s", Measured: "1.04 s"},
		{Name: "not run", Target: "< 10 s", Measured: notMeasured},
		{Name: "missed too", Target: "≥ 3×", Measured: "2.1×"},
	}
	var names []string
	for _, m := range Missed(targets) {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "missed,missed too" {
		t.Fatalf("missed: %v, want missed and missed too", names)
	}
	if Missed(targets[:1]) != nil || Missed(nil) != nil {
		t.Fatal("a run that met every target it measured misses none")
	}
}
