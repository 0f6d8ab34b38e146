package syncer

import (
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// lifecycle_syncer_async_operations_total is exported from the start, every kind and outcome at 0,
// so rate() and alerts work before the first operation.
func TestAsyncOperationsAreCountedFromZero(t *testing.T) {
	reg := prometheus.NewRegistry()
	newMetrics(reg)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range families {
		if f.GetName() != "lifecycle_syncer_async_operations_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if v := m.GetCounter().GetValue(); v != 0 {
				t.Errorf("%v = %v at start, want 0", labels, v)
			}
			got = append(got, labels["kind"]+"/"+labels["outcome"])
		}
	}
	want := []string{"delete_now/deleted", "delete_now/failed", "delete_now/skipped",
		"transfer/completed", "transfer/error", "transfer/failed", "transfer/noop"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("lifecycle_syncer_async_operations_total at start: %v, want %v", got, want)
	}
}
