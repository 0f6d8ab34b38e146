package syncer

import (
	"math"
	"slices"
	"testing"
	"time"
)

func newTestRefresher(cfg Config) *refresher {
	return newRefresher(&Syncer{cfg: cfg})
}

// The next refresh waits for the debounce, the minimum interval after the end of the last, and
// long enough after it that refreshing takes at most the maximum share of the time.
func TestRefreshWait(t *testing.T) {
	now := time.Now()
	cfg := Config{RefreshDebounce: time.Second, RefreshMinInterval: 10 * time.Second, RefreshMaxShare: 0.25}
	for _, c := range []struct {
		name     string
		share    float64
		sinceEnd time.Duration // 0: no refresh yet
		took     time.Duration
		want     time.Duration
	}{
		{"first refresh: the debounce", 0.25, 0, 0, time.Second},
		{"long after the last: the debounce", 0.25, time.Minute, time.Second, time.Second},
		{"right after a short refresh: the minimum interval", 0.25, 0, 800 * time.Millisecond, 10 * time.Second},
		{"3 s after a short refresh: the rest of the interval", 0.25, 3 * time.Second, 800 * time.Millisecond, 7 * time.Second},
		{"right after an 8 s refresh: three refreshes' time (25%)", 0.25, 0, 8 * time.Second, 24 * time.Second},
		{"share 0.5: one refresh's time, or the minimum interval", 0.5, 0, 8 * time.Second, 10 * time.Second},
		{"share 0.5 after a 16 s refresh", 0.5, 0, 16 * time.Second, 16 * time.Second},
		{"share 1: no cap", 1, 0, time.Minute, 10 * time.Second},
		{"9.5 s after the end, minimum interval left: the debounce", 0.25, 9500 * time.Millisecond, time.Second, time.Second},
		{"right after an 8 s rebuild: the minimum interval, no pause for the share", 0.25, 0, -8 * time.Second, 10 * time.Second},
	} {
		cfg.RefreshMaxShare = c.share
		r := newTestRefresher(cfg)
		if c.took != 0 || c.sinceEnd > 0 {
			// A negative took is a whole rebuild of that length.
			r.done(now.Add(-c.sinceEnd), c.took.Abs(), c.took < 0)
		}
		if got := r.wait(now); got != c.want {
			t.Errorf("%s: wait %v, want %v", c.name, got, c.want)
		}
	}
}

// Under steady changes refreshes keep to the cap: a refresh of d, then d·(1−share)/share of rest.
func TestRefreshShareUnderSteadyChanges(t *testing.T) {
	for _, took := range []time.Duration{100 * time.Millisecond, time.Second, 5 * time.Second, 30 * time.Second} {
		r := newTestRefresher(Config{RefreshDebounce: time.Second, RefreshMinInterval: 10 * time.Second, RefreshMaxShare: 0.25})
		var clock time.Time
		busy := time.Duration(0)
		for range 100 {
			clock = clock.Add(r.wait(clock)) // a change is always waiting: the refresh starts as soon as allowed
			clock = clock.Add(took)
			busy += took
			r.done(clock, took, false)
		}
		share := busy.Seconds() / clock.Sub(time.Time{}).Seconds()
		want := math.Min(0.25, took.Seconds()/(took.Seconds()+10))
		if share > want+0.01 {
			t.Errorf("refreshes of %v: %.0f%% of the time, want at most %.0f%%", took, 100*share, 100*want)
		}
	}
}

// The lag is the age of the oldest change not shown, from its commit, including the changes the
// refresh running will show; a failed refresh leaves them not shown.
func TestRefreshLag(t *testing.T) {
	r := newTestRefresher(Config{})
	if lag := r.lag(); lag != 0 {
		t.Fatalf("lag %v with no change, want 0", lag)
	}
	now := time.Now()
	r.changed(now.Add(-3*time.Second), nil)
	r.changed(now.Add(-time.Second), nil) // newer: the oldest stays
	if lag := r.lag(); lag < 3 || lag > 4 {
		t.Fatalf("lag %v, want about 3 s (the oldest change)", lag)
	}
	// A refresh starts: the changes it will show still count until it ends.
	facts, xids, whole := r.starting()
	r.changed(now.Add(-500*time.Millisecond), nil)
	if lag := r.lag(); lag < 3 || lag > 4 {
		t.Fatalf("lag %v during a refresh, want about 3 s", lag)
	}
	// It rises while the refresh runs, not only once it has ended.
	during := r.lag()
	time.Sleep(20 * time.Millisecond)
	if lag := r.lag(); lag < during+0.015 {
		t.Fatalf("lag %v 20 ms after %v during a refresh, want it risen as long", lag, during)
	}
	// It fails: they are still not shown.
	r.ended(false, facts, xids, whole)
	if lag := r.lag(); lag < 3 || lag > 4 {
		t.Fatalf("lag %v after a failed refresh, want about 3 s", lag)
	}
	// The next one succeeds: only what was recorded meanwhile is left.
	facts, xids, whole = r.starting()
	r.changed(now.Add(-200*time.Millisecond), nil)
	r.ended(true, facts, xids, whole)
	if lag := r.lag(); lag < 0.2 || lag > 1.2 {
		t.Fatalf("lag %v after the refresh, want about 0.2 s", lag)
	}
	facts, xids, whole = r.starting()
	r.ended(true, facts, xids, whole)
	if lag := r.lag(); lag != 0 {
		t.Fatalf("lag %v with everything shown, want 0", lag)
	}
}

// The first update rebuilds the table whole; then each takes the facts recorded since the last
// began, a failed one hands its facts (or its rebuild) to the next, and too many facts waiting
// turn into a rebuild.
func TestRefreshFacts(t *testing.T) {
	r := newTestRefresher(Config{})
	now := time.Now()
	r.changed(now, []int64{7}, []byte(`{"action":"archived"}`))
	if facts, xids, whole := r.starting(); !whole || len(facts) != 0 || len(xids) != 0 {
		t.Fatalf("first update: whole %v with %d facts of %v, want a rebuild", whole, len(facts), xids)
	} else {
		r.ended(true, facts, xids, whole)
	}
	a, b, c := []byte(`{"action":"a"}`), []byte(`{"action":"b"}`), []byte(`{"action":"c"}`)
	r.changed(now, []int64{8}, a, b)
	facts, xids, whole := r.starting()
	if whole || len(facts) != 2 || !slices.Equal(xids, []int64{8}) {
		t.Fatalf("update after two facts: whole %v with %d facts of %v, want the two of 8", whole, len(facts), xids)
	}
	r.changed(now, []int64{9}, c) // during the update
	r.ended(false, facts, xids, whole)
	facts, xids, whole = r.starting()
	if whole || len(facts) != 3 || string(facts[0]) != string(a) || string(facts[2]) != string(c) || !slices.Equal(xids, []int64{8, 9}) {
		t.Fatalf("update after a failed one: whole %v with %q of %v, want a, b, c of 8 and 9", whole, facts, xids)
	}
	r.ended(false, nil, nil, true) // a failed rebuild: the next rebuilds
	if facts, xids, whole = r.starting(); !whole {
		t.Fatalf("after a failed rebuild: whole %v with %d facts, want a rebuild", whole, len(facts))
	}
	r.ended(true, facts, xids, whole)
	for i := 0; i <= maxPendingFacts; i++ {
		r.changed(now, []int64{int64(i)}, a)
	}
	if facts, xids, whole = r.starting(); !whole || len(facts) != 0 || len(xids) != 0 {
		t.Fatalf("after %d facts waiting: whole %v with %d facts of %d transactions, want a rebuild", maxPendingFacts+1, whole, len(facts), len(xids))
	}
	r.ended(true, facts, xids, whole)
	if facts, xids, whole = r.starting(); whole || len(facts) != 0 || len(xids) != 0 {
		t.Fatalf("nothing recorded: whole %v with %d facts of %v", whole, len(facts), xids)
	}
}

// A slow update's log line counts the namespaces its facts name, each once.
func TestNamedNamespaces(t *testing.T) {
	facts := [][]byte{[]byte(`{"action":"namespace_created","namespace_id":7}`), []byte(`{"action":"archived","namespace_id":7,"details":{"to_state":"archived"}}`),
		[]byte(`{"action":"namespace_created","namespace_id":8}`), []byte(`{"action":"table_truncated"}`), []byte(`not json`)}
	if n := namedNamespaces(facts); n != 2 {
		t.Fatalf("%d namespaces named, want 2", n)
	}
}
