package syncer

import (
	"context"
	"time"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

// refresher keeps lifecycle.effective_states fresh: after a change it waits for the debounce
// period (more changes within it share one refresh), then refreshes concurrently; never two at
// once, since it is one goroutine. The lag it exports is the age of the oldest change not yet in
// the view.
type refresher struct {
	s       *Syncer
	kick    chan struct{}
	pending time.Time // first change not yet refreshed; zero when none
	lastEnd time.Time // when the last refresh ended
}

// wait is how long a refresh of changes seen now waits: the debounce, and at least the minimum
// interval since the last refresh ended, so that under steady changes refreshes do not run back to
// back (a full refresh costs seconds of CPU at a million namespaces).
func (r *refresher) wait(now time.Time) time.Duration {
	w := r.s.cfg.RefreshDebounce
	if !r.lastEnd.IsZero() {
		w = max(w, r.lastEnd.Add(r.s.cfg.RefreshMinInterval).Sub(now))
	}
	return w
}

func (r *refresher) changed() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

func (r *refresher) run(ctx context.Context) {
	lagTick := time.NewTicker(time.Second)
	defer lagTick.Stop()
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-lagTick.C:
			if !r.pending.IsZero() {
				r.s.metrics.refreshLag.Set(time.Since(r.pending).Seconds())
			}
		case <-r.kick:
			if r.pending.IsZero() {
				r.pending = time.Now()
				timer = time.After(r.wait(r.pending))
			}
		case <-timer:
			timer = nil
			// Changes that arrive during the refresh are picked up by the next one.
			since := r.pending
			r.pending = time.Time{}
			start := time.Now()
			if err := db.New(r.s.pool).EffectiveStatesRefresh(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				r.s.log.Error("refresh lifecycle.effective_states", "err", nslifecycle.FromDB(err))
				r.pending = since
				timer = time.After(r.s.cfg.RefreshDebounce)
				continue
			}
			r.lastEnd = time.Now()
			r.s.metrics.refreshes.Observe(r.lastEnd.Sub(start).Seconds())
			r.s.metrics.refreshLag.Set(0)
		}
	}
}
