package syncer

import (
	"math"
	"testing"
	"time"
)

func newTestRefresher(cfg Config) *refresher {
	return newRefresher(&Syncer{cfg: cfg})
}

// The next refresh waits for the debounce, the minimum interval after the end of the last, and
// long enough after it that refreshing takes at most the maximum share of the time, beyond the
// burst allowance (refreshBurst, 2 s, full at the start).
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
		{"right after an 8 s refresh: three refreshes' time (25%), less the 2 s allowance's worth", 0.25, 0, 8 * time.Second, 16 * time.Second},
		{"share 0.5: one refresh's time less the allowance, or the minimum interval", 0.5, 0, 8 * time.Second, 10 * time.Second},
		{"share 0.5 after a 16 s refresh", 0.5, 0, 16 * time.Second, 12 * time.Second},
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

// A refresh of a burst (a second or two) is followed by the next as soon as a change asks, without
// a pause for the share: at share 0.5 a 1.5 s update costs 0.75 s of the 2 s allowance, so two
// run back to back freely and the third is followed by a pause.
func TestRefreshAfterABurstDoesNotPause(t *testing.T) {
	r := newTestRefresher(Config{RefreshMaxShare: 0.5})
	clock := time.Now()
	for i, want := range []bool{false, false, true} {
		clock = clock.Add(1500 * time.Millisecond)
		r.done(clock, 1500*time.Millisecond, false)
		if got := r.wait(clock); (got > 0) != want {
			t.Fatalf("right after update %d of 1.5 s back to back: wait %v, want a pause %v", i+1, got, want)
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
