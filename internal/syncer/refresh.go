package syncer

import (
	"context"
	"sync"
	"time"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

// refresher keeps lifecycle.effective_states fresh: after a change it waits for the debounce
// period (more changes within it share one refresh), then refreshes concurrently; never two at
// once, since it is one goroutine. Under steady changes refreshes do not run back to back (a full
// refresh costs seconds of CPU at a million namespaces): the next starts at least
// RefreshMinInterval after the end of the last, and late enough that refreshing takes at most
// RefreshMaxShare of the time. The lag it exports is the age of the oldest change the view does
// not show yet, from that change's commit.
type refresher struct {
	s    *Syncer
	kick chan struct{}

	mu      sync.Mutex
	oldest  time.Time // commit time of the oldest change neither in the view nor in the refresh running; zero: none
	running time.Time // commit time of the oldest change the refresh running will show; zero: none running

	lastEnd  time.Time     // when the last refresh ended (the run goroutine's)
	lastTook time.Duration // and how long it took
}

// changed: a source transaction committed at `committed` has been recorded; what it changed is not
// in the view until a refresh that starts after now ends.
func (r *refresher) changed(committed time.Time) {
	r.mu.Lock()
	if r.oldest.IsZero() || committed.Before(r.oldest) {
		r.oldest = committed
	}
	r.mu.Unlock()
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// lag is the age in seconds of the oldest recorded change the view does not show yet (0: none).
// A change recorded while a refresh runs counts as not shown until the next one (it may be shown
// already: the refresh's snapshot may include it), so the lag errs on the high side.
func (r *refresher) lag() float64 {
	r.mu.Lock()
	t := r.oldest
	if !r.running.IsZero() && (t.IsZero() || r.running.Before(t)) {
		t = r.running
	}
	r.mu.Unlock()
	if t.IsZero() {
		return 0
	}
	return max(0, time.Since(t).Seconds())
}

// starting: a refresh begins; it will show the changes recorded so far. Those recorded during it
// are left for the next.
func (r *refresher) starting() {
	r.mu.Lock()
	r.running, r.oldest = r.oldest, time.Time{}
	r.mu.Unlock()
}

// ended: the refresh is over; when it failed, the changes it was to show are not shown.
func (r *refresher) ended(ok bool) {
	r.mu.Lock()
	if !ok && !r.running.IsZero() && (r.oldest.IsZero() || r.running.Before(r.oldest)) {
		r.oldest = r.running
	}
	r.running = time.Time{}
	r.mu.Unlock()
}

// gap is how long after the end of a refresh that took `took` the next may start: the minimum
// interval, and long enough for refreshing to take at most the maximum share of the time (a
// refresh of d every d/share: d·(1−share)/share between them).
func (r *refresher) gap(took time.Duration) time.Duration {
	g := r.s.cfg.RefreshMinInterval
	if share := r.s.cfg.RefreshMaxShare; share > 0 && share < 1 {
		g = max(g, time.Duration(float64(took)*(1-share)/share))
	}
	return g
}

// wait is how long a refresh of changes seen now waits: the debounce, and at least until the gap
// after the last refresh has passed.
func (r *refresher) wait(now time.Time) time.Duration {
	w := r.s.cfg.RefreshDebounce
	if !r.lastEnd.IsZero() {
		w = max(w, r.lastEnd.Add(r.gap(r.lastTook)).Sub(now))
	}
	return w
}

func (r *refresher) run(ctx context.Context) {
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
			if timer == nil {
				timer = time.After(r.wait(time.Now()))
			}
		case <-timer:
			timer = nil
			r.starting()
			start := time.Now()
			err := db.New(r.s.pool).EffectiveStatesRefresh(ctx)
			end := time.Now()
			r.ended(err == nil)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				r.s.log.Error("refresh lifecycle.effective_states", "err", nslifecycle.FromDB(err))
				timer = time.After(r.s.cfg.RefreshDebounce)
				continue
			}
			r.lastEnd, r.lastTook = end, end.Sub(start)
			r.s.metrics.refreshes.Observe(r.lastTook.Seconds())
		}
	}
}
