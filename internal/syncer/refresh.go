package syncer

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
)

// maxPendingFacts bounds the facts kept for the next update of lifecycle.effective_states: past
// it (the database refusing updates for long under a stream of changes), they are dropped and the
// next update rebuilds the table whole instead.
const maxPendingFacts = 100_000

// slowUpdate is how long an update of lifecycle.effective_states may take before it is logged at
// WARN: every change recorded meanwhile waits for it (docs/operations.md promises well under a
// second), so one that takes longer is worth a line with what it was given.
const slowUpdate = time.Second

// refresher keeps lifecycle.effective_states current from the facts the syncer records: it hands
// them to lifecycle.effective_states_apply, which recomputes only the subtrees they can have
// touched (which facts matter is decided there). One update at a time, since it is one goroutine;
// facts recorded while one runs wait for the next, so under load updates grow by themselves.
// After the debounce, the next update starts at least RefreshMinInterval after the end of the
// last, and late enough that updating takes at most RefreshMaxShare of the time. The table is
// rebuilt whole (effective_states_refresh) when the refresher starts (facts recorded by an
// earlier run and not applied before it stopped are not sent again) and when too many facts have
// piled up. The lag it exports is the age of the oldest change the table does not show yet, from
// that change's commit.
type refresher struct {
	s    *Syncer
	kick chan struct{}

	mu      sync.Mutex
	pending [][]byte  // facts recorded since the update running started (JSON)
	xids    []int64   // and the source transactions they came from (effective_states_apply waits until it sees them)
	whole   bool      // the next update rebuilds the table whole
	oldest  time.Time // commit time of the oldest change neither in the table nor in the update running; zero: none
	running time.Time // commit time of the oldest change the update running will show; zero: none running

	lastEnd  time.Time     // when the last update ended (the run goroutine's)
	lastTook time.Duration // and how long it took
}

func newRefresher(s *Syncer) *refresher {
	return &refresher{s: s, kick: make(chan struct{}, 1), whole: true}
}

// changed: source transactions (xids), the first committed at `committed`, have been recorded
// with these facts; what they changed is not in the table until an update that starts after now
// ends.
func (r *refresher) changed(committed time.Time, xids []int64, facts ...[]byte) {
	r.mu.Lock()
	if r.oldest.IsZero() || committed.Before(r.oldest) {
		r.oldest = committed
	}
	if !r.whole {
		r.pending = append(r.pending, facts...)
		r.xids = append(r.xids, xids...)
		if len(r.pending) > maxPendingFacts {
			r.pending, r.xids, r.whole = nil, nil, true
		}
	}
	r.mu.Unlock()
	r.wake()
}

func (r *refresher) wake() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// lag is the age in seconds of the oldest recorded change the table does not show yet (0: none).
// A change recorded while an update runs counts as not shown until the next one (it may be shown
// already: the update reads the tree as it is), so the lag errs on the high side.
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

// starting: an update begins; it will show the changes recorded so far, whose facts and source
// transactions it takes (whole: rebuild the table instead). Those recorded during it are left for
// the next.
func (r *refresher) starting() (facts [][]byte, xids []int64, whole bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running, r.oldest = r.oldest, time.Time{}
	facts, xids, whole = r.pending, r.xids, r.whole
	r.pending, r.xids, r.whole = nil, nil, false
	return facts, xids, whole
}

// ended: the update is over; when it failed, the changes it was to show are not shown, and its
// facts (or its rebuild) go to the next.
func (r *refresher) ended(ok bool, facts [][]byte, xids []int64, whole bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !ok {
		if !r.running.IsZero() && (r.oldest.IsZero() || r.running.Before(r.oldest)) {
			r.oldest = r.running
		}
		r.whole = r.whole || whole || len(r.pending)+len(facts) > maxPendingFacts
		if r.whole {
			r.pending, r.xids = nil, nil
		} else {
			r.pending = append(facts, r.pending...)
			r.xids = append(xids, r.xids...)
		}
	}
	r.running = time.Time{}
}

// done: an update that took `took` ended at `end`. The pause the maximum share asks for follows
// the updates of changes only: a whole rebuild (when the syncer starts, or after too many facts
// piled up) is a one-off whose seconds at a million namespaces would otherwise hold back the next
// change for as long.
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
	r.wake() // the rebuild at start
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
			facts, xids, whole := r.starting()
			start := time.Now()
			var err error
			var rows int64
			if whole {
				err = db.New(r.s.pool).EffectiveStatesRefresh(ctx)
			} else {
				rows, err = db.New(r.s.pool).EffectiveStatesApply(ctx, db.EffectiveStatesApplyParams{Facts: facts, SourceXids: xids})
			}
			end := time.Now()
			r.ended(err == nil, facts, xids, whole)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				r.s.log.Error("update lifecycle.effective_states", "whole", whole, "facts", len(facts), "err", nslifecycle.FromDB(err))
				timer = time.After(r.s.cfg.RefreshDebounce + time.Second)
				continue
			}
			took := end.Sub(start)
			r.done(end, took, whole)
			if whole {
				r.s.log.Info("rebuilt lifecycle.effective_states whole", "took", took)
			} else if took > slowUpdate {
				r.s.log.Warn("slow update of lifecycle.effective_states: later changes waited for it", "facts", len(facts),
					"namespaces", namedNamespaces(facts), "rows", rows, "took", took)
			} else {
				r.s.log.Debug("updated lifecycle.effective_states", "facts", len(facts), "rows", rows, "took", took)
			}
			r.s.metrics.refreshes.Observe(took.Seconds())
		}
	}
}

// namedNamespaces is how many namespaces the facts name: the subtrees an update may have walked
// from (effective_states_apply picks those of the facts that matter), for the log of a slow one.
func namedNamespaces(facts [][]byte) int {
	seen := map[int64]bool{}
	for _, f := range facts {
		var v struct {
			NamespaceID *int64 `json:"namespace_id"`
		}
		if json.Unmarshal(f, &v) == nil && v.NamespaceID != nil {
			seen[*v.NamespaceID] = true
		}
	}
	return len(seen)
}
