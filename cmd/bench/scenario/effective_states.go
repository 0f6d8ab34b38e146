package scenario

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// EffectiveStatesResult is what keeping lifecycle.effective_states costs: the update after one
// change by the size of the subtree changed (effective_states_apply, what the syncer runs), the
// whole rebuilds it replaces (the pre-015 materialized view's concurrent refresh, the table's
// rebuild, the definition's query alone), and the lag through the syncer from a change's commit
// until the table shows it.
type EffectiveStatesResult struct {
	Namespaces int                     `json:"namespaces"`
	Updates    []EffectiveStatesUpdate `json:"updates"`
	Rebuilds   []RefreshRun            `json:"rebuilds"`
	Lag        []EffectiveStatesLag    `json:"lag"`
}

// EffectiveStatesUpdate is effective_states_apply for one state change of a namespace with
// Descendants below it, over every change of the rounds (archive and unarchive each round).
type EffectiveStatesUpdate struct {
	Descendants int     `json:"descendants"`
	Latency     Latency `json:"latency"`
}

// EffectiveStatesLag is the time from a change's commit (as its client sees it) until
// lifecycle.effective_states shows it for the deepest namespace below, through the syncer with
// its defaults, one change at a time.
type EffectiveStatesLag struct {
	Descendants int     `json:"descendants"`
	Lag         Latency `json:"lag"`
}

// RefreshRun is one way of computing every namespace's effective state at once, timed over the
// rounds (median).
type RefreshRun struct {
	Namespaces int       `json:"namespaces"`
	Method     string    `json:"method"`
	Seconds    float64   `json:"seconds"`
	Rounds     []float64 `json:"seconds_rounds"`
}

// The whole rebuilds measured beside the per-change update.
const (
	RebuildMatview   = "matview_refresh_concurrently" // before 015: REFRESH MATERIALIZED VIEW CONCURRENTLY of the definition
	RebuildTable     = "table_rebuild"                // lifecycle.effective_states_refresh(): the syncer's at start
	RebuildQueryOnly = "query_only"                   // the definition's query alone, nothing written
)

// effectiveStatesSizes are the subtrees changed: a project, a group with 100 namespaces below it,
// one with 10,000 (the bound for a lag under a second).
var effectiveStatesSizes = []int{0, 100, 10_000}

// effectiveStatesChanges is how many changes per subtree size each round makes (archive, unarchive, …).
const effectiveStatesChanges = 10

func runEffectiveStates(ctx context.Context, e *env) error {
	res := &EffectiveStatesResult{Namespaces: e.data.Namespaces}
	e.res.EffectiveStates = res
	// The subtrees, below an organization of their own, and a probe in each: its deepest namespace.
	var org int64
	if err := e.pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'effective states')
		returning id`, e.fixturePath("bench-effective-states")).Scan(&org); err != nil {
		return err
	}
	// An owner, as every organization of the hierarchy has (other scenarios pick from them all).
	if _, err := e.pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 900002, 50)`, org); err != nil {
		return err
	}
	type subtree struct{ root, probe int64 }
	var subtrees []subtree
	for _, d := range effectiveStatesSizes {
		root, err := Subtree(ctx, e.pool, org, 1, d+1, 10)
		if err != nil {
			return fmt.Errorf("subtree of %d: %w", d, err)
		}
		var probe int64
		if err := e.pool.QueryRow(ctx, `select n.id from lifecycle.namespaces n, lifecycle.namespaces r
			where r.id = $1 and n.traversal_ids[1:cardinality(r.traversal_ids)] = r.traversal_ids
			order by cardinality(n.traversal_ids) desc, n.id desc limit 1`, root).Scan(&probe); err != nil {
			return err
		}
		subtrees = append(subtrees, subtree{root, probe})
	}
	// The baseline tables hold every namespace the later scenarios may pick.
	if _, err := e.pool.Exec(ctx, `insert into lifecycle_bench.namespaces select * from lifecycle.namespaces where traversal_ids[1] = $1`, org); err != nil {
		return err
	}
	if _, err := e.pool.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
		return err
	}
	if err := e.settle(ctx); err != nil {
		return err
	}
	conn, err := connect(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())

	// Whatever waits (migration 035 leaves a whole rebuild) is applied first, untimed.
	if _, _, err := ApplyPending(ctx, conn); err != nil {
		return fmt.Errorf("apply what waits: %w", err)
	}
	// The update after one change, alone: the change committed, then its fact applied and timed.
	events := []struct{ event string }{{"archive"}, {"unarchive"}}
	for i, d := range effectiveStatesSizes {
		var took []time.Duration
		for range e.cfg.Rounds {
			for k := range effectiveStatesChanges {
				ev := events[k%2]
				if _, err := conn.Exec(ctx, `select lifecycle.namespace_event($1, $2, null)`, subtrees[i].root, ev.event); err != nil {
					return fmt.Errorf("%s %d: %w", ev.event, subtrees[i].root, err)
				}
				t0 := time.Now() // the change's fact waits in the outbox
				if _, _, err := ApplyPending(ctx, conn); err != nil {
					return fmt.Errorf("apply: %w", err)
				}
				took = append(took, time.Since(t0))
			}
		}
		u := EffectiveStatesUpdate{Descendants: d, Latency: summarize(took)}
		res.Updates = append(res.Updates, u)
		e.log.Info("effective_states update", "descendants", d, "p50_ms", u.Latency.P50, "max_ms", u.Latency.Max)
	}

	// The whole rebuilds, each round in turn.
	if _, err := e.pool.Exec(ctx, `drop materialized view if exists lifecycle_bench.effective_states_matview;
		create materialized view lifecycle_bench.effective_states_matview as select * from lifecycle.effective_states_computed;
		create unique index on lifecycle_bench.effective_states_matview (namespace_id)`); err != nil {
		return err
	}
	defer e.pool.Exec(context.WithoutCancel(ctx), `drop materialized view if exists lifecycle_bench.effective_states_matview`)
	methods := []struct{ name, sql string }{
		{RebuildMatview, `refresh materialized view concurrently lifecycle_bench.effective_states_matview`},
		{RebuildTable, `select lifecycle.effective_states_refresh()`},
		{RebuildQueryOnly, `select count(*) from lifecycle.effective_states_computed`},
	}
	runs := map[string]*RefreshRun{}
	for round := range e.cfg.Rounds {
		for _, m := range methods {
			t0 := time.Now()
			if _, err := e.pool.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
			s := round3(time.Since(t0).Seconds())
			if runs[m.name] == nil {
				runs[m.name] = &RefreshRun{Namespaces: e.data.Namespaces, Method: m.name}
			}
			runs[m.name].Rounds = append(runs[m.name].Rounds, s)
			e.log.Info("effective_states rebuild", "method", m.name, "round", round+1, "seconds", s)
		}
	}
	for _, m := range methods {
		r := runs[m.name]
		r.Seconds = round3(median(r.Rounds))
		res.Rebuilds = append(res.Rebuilds, *r)
	}

	// The lag through the syncer (its defaults), one change at a time: commit → the probe's row
	// shows the new effective state.
	sp, drop, err := e.effectiveStatesSyncer(ctx)
	if err != nil {
		return err
	}
	defer drop()
	defer sp.stop()
	watch, err := connect(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer watch.Close(context.Background())
	for i, d := range effectiveStatesSizes {
		var lags []time.Duration
		for range e.cfg.Rounds {
			for k := range effectiveStatesChanges {
				ev := events[k%2]
				want := "archived"
				if ev.event == "unarchive" {
					want = "active"
				}
				if _, err := conn.Exec(ctx, `select lifecycle.namespace_event($1, $2, null)`, subtrees[i].root, ev.event); err != nil {
					return fmt.Errorf("%s %d: %w", ev.event, subtrees[i].root, err)
				}
				committed := time.Now()
				lag, err := waitForEffectiveState(ctx, watch, subtrees[i].probe, want, committed, time.Minute)
				if err != nil {
					return fmt.Errorf("lag of a change with %d descendants: %w\n%s", d, err, sp.tail())
				}
				lags = append(lags, lag)
				time.Sleep(100 * time.Millisecond)
			}
		}
		l := EffectiveStatesLag{Descendants: d, Lag: summarize(lags)}
		res.Lag = append(res.Lag, l)
		e.log.Info("effective_states lag", "descendants", d, "p50_ms", l.Lag.P50, "p99_ms", l.Lag.P99, "max_ms", l.Lag.Max)
	}
	if err := sp.stop(); err != nil {
		return err
	}
	// The table the syncer kept equals its definition.
	var wrong int
	if err := e.pool.QueryRow(ctx, `select count(*) from lifecycle.effective_states_verify()`).Scan(&wrong); err != nil {
		return err
	}
	if wrong != 0 {
		return fmt.Errorf("%d rows of lifecycle.effective_states differ from the definition after the run", wrong)
	}
	return nil
}

// waitForEffectiveState polls the probe's row until it shows want, and returns how long after
// committed that was (polling every millisecond: the lag is known to about that).
func waitForEffectiveState(ctx context.Context, conn *pgx.Conn, probe int64, want string, committed time.Time, limit time.Duration) (time.Duration, error) {
	for {
		var got string
		if err := conn.QueryRow(ctx, `select effective_state from lifecycle.effective_states where namespace_id = $1`, probe).Scan(&got); err != nil {
			return 0, err
		}
		if got == want {
			return time.Since(committed), nil
		}
		if time.Since(committed) > limit {
			return 0, fmt.Errorf("namespace %d still shows %s after %s, want %s", probe, got, limit, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// effectiveStatesSyncer starts a syncer (its defaults) on a fresh slot of its own and waits until
// its rebuild of lifecycle.effective_states at start has ended (seconds at a million namespaces),
// so that the lags measured after are those of changes made after. drop drops the slot, once the
// syncer is stopped.
func (e *env) effectiveStatesSyncer(ctx context.Context) (sp *syncerProc, drop func(), err error) {
	slot := e.cfg.Slot + "_effective_states"
	if err := e.freshSlot(ctx, slot); err != nil {
		return nil, nil, err
	}
	drop = func() { _ = e.freshSlot(context.WithoutCancel(ctx), slot) }
	if sp, err = e.startSyncer(ctx, slot); err != nil {
		drop()
		return nil, nil, err
	}
	return sp, drop, nil
}
