package syncer

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
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

// recordingRegisterer registers on a registry and keeps what was registered.
type recordingRegisterer struct {
	*prometheus.Registry
	collectors []prometheus.Collector
}

func (r *recordingRegisterer) Register(c prometheus.Collector) error {
	r.collectors = append(r.collectors, c)
	return r.Registry.Register(c)
}

func (r *recordingRegisterer) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

// drain is what a Collect or Describe sends.
func drain[T any](send func(chan<- T)) []T {
	ch := make(chan T)
	go func() {
		send(ch)
		close(ch)
	}()
	var got []T
	for v := range ch {
		got = append(got, v)
	}
	return got
}

// Every counter is on /metrics from the start, at 0, each known label value of a vector too:
// rate() and increase() (the alerts of deploy/prometheus/lifecycle.rules.yml) see nothing of a
// series that appears at its first event. A collector registered that shows no series before any
// event (a vector whose label values were not initialised) fails the test. The audit actions are
// read from the database (ExportKnownActions; cmd/syncer's
// TestEveryCounterIsOnTheFirstScrapeAtZero checks them on the binary's first scrape): here two.
func TestEveryCounterIsExportedAtZeroFromTheStart(t *testing.T) {
	reg := &recordingRegisterer{Registry: prometheus.NewRegistry()}
	m := newMetrics(reg)
	m.exportActions([]string{"archived", "restored"})
	for _, c := range reg.collectors {
		if len(drain(c.Collect)) == 0 {
			t.Errorf("%v: no series before the first event", drain(c.Describe))
		}
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{} // counter family: its label values
	for _, f := range families {
		if f.GetType() != dto.MetricType_COUNTER {
			continue
		}
		got[f.GetName()] = []string{}
		for _, m := range f.GetMetric() {
			var values []string
			for _, l := range m.GetLabel() {
				values = append(values, l.GetValue())
			}
			if v := m.GetCounter().GetValue(); v != 0 {
				t.Errorf("%s%v = %v at start, want 0", f.GetName(), values, v)
			}
			if len(values) > 0 {
				got[f.GetName()] = append(got[f.GetName()], strings.Join(values, "/"))
			}
		}
		slices.Sort(got[f.GetName()])
	}
	want := map[string][]string{
		"lifecycle_syncer_audit_events_total":       {"archived", "restored"},
		"lifecycle_syncer_transactions_total":       {},
		"lifecycle_syncer_batches_total":            {},
		"lifecycle_syncer_reconnects_total":         {},
		"lifecycle_syncer_slot_recreated_total":     {},
		"lifecycle_syncer_facts_drained_total":      {},
		"lifecycle_syncer_messages_ignored_total":   {},
		"lifecycle_syncer_webhook_deliveries_total": {"dead", "delivered", "failed", "pending"},
		"lifecycle_syncer_async_operations_total": {"delete_now/deleted", "delete_now/failed", "delete_now/skipped",
			"transfer/completed", "transfer/error", "transfer/failed", "transfer/noop"},
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("counters at start:\n got %v\nwant %v", got, want)
	}
}

// The statuses the delivery counter starts with are those lifecycle.webhook_deliveries allows.
func TestDeliveryStatusesAreTheTables(t *testing.T) {
	schema, err := os.ReadFile("../../sql/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`CONSTRAINT webhook_deliveries_status_check CHECK \(\(status = ANY \(ARRAY\[([^\]]*)\]`).FindSubmatch(schema)
	if m == nil {
		t.Fatal("sql/schema.sql: no webhook_deliveries_status_check")
	}
	var table []string
	for _, v := range regexp.MustCompile(`'([a-z_]+)'::text`).FindAllSubmatch(m[1], -1) {
		table = append(table, string(v[1]))
	}
	ours := slices.Clone(deliveryStatuses)
	slices.Sort(table)
	slices.Sort(ours)
	if !slices.Equal(table, ours) {
		t.Fatalf("deliveryStatuses %v, lifecycle.webhook_deliveries.status %v", ours, table)
	}
}
