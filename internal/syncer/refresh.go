package syncer

import (
	"context"
	"time"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// slowUpdate is how long an update of lifecycle.effective_states may take before it is logged at
// WARN: every change recorded meanwhile waits for it (docs/operations.md promises well under a
// second), so one that takes longer is worth a line with what it was given.
const slowUpdate = time.Second

// refresher keeps lifecycle.effective_states current from the facts: each update is one call of
// lifecycle.effective_states_apply, which takes every committed fact not yet applied (from the
// outbox, as soon as the stream shows its commit, and the rows of
// lifecycle.effective_states_pending that recording left, so a syncer that takes over applies what
// the last one left) and recomputes only the subtrees they can have touched (which facts matter
// is decided there). One update at a time, since it is one goroutine;
// facts recorded while one runs wait for the next, so under load updates grow by themselves.
// After the debounce, the next update starts at least RefreshMinInterval after the end of the
// last, and late enough that updating takes at most RefreshMaxShare of the time, beyond a burst
// allowance (refreshBurst). Its lag (the age
// of the oldest recorded change not applied) is sampled from the table by the lag loop.
type refresher struct {
	s    *Syncer
	kick chan struct{}

	lastEnd time.Time     // when the last update ended (the run goroutine's)
	credit  time.Duration // updating the share cap allows at once, as of lastEnd (below 0: a pause is owed)
}

// refreshBurst is how much updating the share cap lets through at once before it paces updates:
// the cap is a budget that refills at RefreshMaxShare of the time, up to this. A burst of 50,000
// creations updates in about a second on the reference VM; a change right after it waits for that
// update, not also for a pause as long (issue 24). Under updates that never stop, the share holds.
const refreshBurst = 2 * time.Second

func newRefresher(s *Syncer) *refresher {
	return &refresher{s: s, kick: make(chan struct{}, 1), credit: refreshBurst}
}

// wake asks for an update: facts committed or were recorded, or this syncer became the active one.
func (r *refresher) wake() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// done: an update that took `took` ended at `end`. The budget refilled at the share since the last
// update ended, and paid for this one (the share of its own time refilling it meanwhile). A whole
// rebuild (after a TRUNCATE, a backfill, an upgrade) is a one-off whose seconds at a million
// namespaces would otherwise hold back the next change for as long: it is not paid for.
func (r *refresher) done(end time.Time, took time.Duration, whole bool) {
	share := r.s.cfg.RefreshMaxShare
	if share > 0 && share < 1 {
		if !r.lastEnd.IsZero() {
			r.credit = min(refreshBurst, r.credit+time.Duration(share*float64(end.Add(-took).Sub(r.lastEnd))))
		}
		if !whole {
			r.credit = min(refreshBurst, r.credit-time.Duration((1-share)*float64(took)))
		}
	}
	r.lastEnd = end
}

// wait is how long an update of changes seen now waits: the debounce, at least until the minimum
// interval after the last update has passed, and until the budget is no longer owed (an update of
// d that overdrew it by d·(1−share) waits d·(1−share)/share: updates take at most the share).
func (r *refresher) wait(now time.Time) time.Duration {
	w := r.s.cfg.RefreshDebounce
	if r.lastEnd.IsZero() {
		return w
	}
	w = max(w, r.lastEnd.Add(r.s.cfg.RefreshMinInterval).Sub(now))
	if share := r.s.cfg.RefreshMaxShare; share > 0 && share < 1 && r.credit < 0 {
		w = max(w, r.lastEnd.Add(time.Duration(float64(-r.credit)/share)).Sub(now))
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
				r.s.log.Error("update lifecycle.effective_states", "err", dberr.FromDB(err))
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
