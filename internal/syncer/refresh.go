package syncer

import (
	"context"
	"time"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

// slowUpdate is how long an update of lifecycle.effective_states may take before it is logged at
// WARN: every change recorded meanwhile waits for it (docs/operations.md promises well under a
// second), so one that takes longer is worth a line with what it was given.
const slowUpdate = time.Second

// refresher keeps lifecycle.effective_states current from the facts the syncer records: each
// update is one call of lifecycle.effective_states_apply, which takes every recorded fact not yet
// applied (rows of lifecycle.effective_states_pending, written with the audit rows, so a syncer
// that takes over applies what the last one left) and recomputes only the subtrees they can have
// touched (which facts matter is decided there). One update at a time, since it is one goroutine;
// facts recorded while one runs wait for the next, so under load updates grow by themselves.
// After the debounce, the next update starts at least RefreshMinInterval after the end of the
// last, and late enough that updating takes at most RefreshMaxShare of the time. Its lag (the age
// of the oldest recorded change not applied) is sampled from the table by the lag loop.
type refresher struct {
	s    *Syncer
	kick chan struct{}

	lastEnd  time.Time     // when the last update ended (the run goroutine's)
	lastTook time.Duration // and how long it took
}

func newRefresher(s *Syncer) *refresher {
	return &refresher{s: s, kick: make(chan struct{}, 1)}
}

// wake asks for an update: facts were recorded, or this syncer became the active one.
func (r *refresher) wake() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// done: an update that took `took` ended at `end`. The pause the maximum share asks for follows
// the updates of changes only: a whole rebuild (after a TRUNCATE, a backfill, an upgrade) is a
// one-off whose seconds at a million namespaces would otherwise hold back the next change for as
// long.
func (r *refresher) done(end time.Time, took time.Duration, whole bool) {
	r.lastEnd, r.lastTook = end, took
	if whole {
		r.lastTook = 0
	}
}

// gap is how long after the end of an update that took `took` the next may start: the minimum
// interval, and long enough for updating to take at most the maximum share of the time (an
// update of d every d/share: d·(1−share)/share between them).
func (r *refresher) gap(took time.Duration) time.Duration {
	g := r.s.cfg.RefreshMinInterval
	if share := r.s.cfg.RefreshMaxShare; share > 0 && share < 1 {
		g = max(g, time.Duration(float64(took)*(1-share)/share))
	}
	return g
}

// wait is how long an update of changes seen now waits: the debounce, and at least until the gap
// after the last update has passed.
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
			start := time.Now()
			res, err := db.New(r.s.pool).EffectiveStatesApply(ctx)
			end := time.Now()
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				// The facts stay pending (the update rolled back): the next one takes them.
				r.s.log.Error("update lifecycle.effective_states", "err", nslifecycle.FromDB(err))
				timer = time.After(r.s.cfg.RefreshDebounce + time.Second)
				continue
			}
			took := end.Sub(start)
			whole := res.Written < 0
			r.done(end, took, whole)
			switch {
			case res.Facts == 0:
				continue // nothing was pending (another update took it)
			case whole:
				r.s.log.Info("rebuilt lifecycle.effective_states whole", "facts", res.Facts, "took", took)
			case took > slowUpdate:
				r.s.log.Warn("slow update of lifecycle.effective_states: later changes waited for it", "facts", res.Facts,
					"rows", res.Written, "took", took)
			default:
				r.s.log.Debug("updated lifecycle.effective_states", "facts", res.Facts, "rows", res.Written, "took", took)
			}
			r.s.metrics.refreshes.Observe(took.Seconds())
		}
	}
}
