package scenario

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// BurstResult is lifecycle.effective_states_apply after a burst of N creations in a few
// statements (issue 24: one INSERT of 50,000 projects made it run 14 minutes), by N, with the
// whole rebuild of the same table measured in the same rounds as the baseline (what the update
// should never cost much more than). Growth is the time at the largest N up to 16k over the time
// at the smallest: about the ratio of the Ns when the update follows the work, its square when
// it does not.
type BurstResult struct {
	Namespaces int        `json:"namespaces"` // in the table when the run ended
	Runs       []BurstRun `json:"runs"`
	Rebuild    RefreshRun `json:"rebuild"`
	Growth     float64    `json:"growth"`
	GrowthOf   [2]int     `json:"growth_of"` // the two Ns Growth compares
	// The case through the syncer (its defaults): a burst of LagBurst creations committed,
	// then at once a change of another group; how long from that change's commit until the table
	// shows it, each round.
	LagBurst int       `json:"lag_burst"`
	Lag      []float64 `json:"later_change_lag_seconds"`
	// Of which the syncer's recording: from the change's commit until the syncer's transaction
	// that recorded its audit row began (recorded_at − committed_at, both the server's clock), the
	// part no update of the table can shorten (the burst's facts are recorded first).
	AuditLag []float64 `json:"later_change_audit_lag_seconds"`
}

// BurstRun is one N over the rounds (median).
type BurstRun struct {
	Creations int       `json:"creations"`
	Facts     int       `json:"facts"`
	Rows      int64     `json:"rows"`
	Seconds   float64   `json:"seconds"`
	Rounds    []float64 `json:"seconds_rounds"`
}

// Burst makes a burst of n creations below parent, as one application's bulk INSERTs would, and
// returns the facts the syncer would hand effective_states_apply for them: a group (created and
// applied before, not counted), n/100 subgroups in it, half the projects in those (roots below
// other roots of the same call) and the rest right in the group (leaves below a namespace whose
// row is there); then the first subgroup is archived, so a state change above some of the new
// namespaces is in the same call. Facts are built as the fact_emit writes them (the fields
// effective_states_apply reads).
func Burst(ctx context.Context, conn *pgx.Conn, parent int64, n int, tag string) ([]string, error) {
	var group int64
	if err := conn.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', $2, 'burst')
		returning id`, parent, tag).Scan(&group); err != nil {
		return nil, err
	}
	// The group's creation, and whatever else waits, applied before the burst (untimed).
	if _, _, err := ApplyPending(ctx, conn); err != nil {
		return nil, err
	}
	subs := max(n/100, 1)
	below := (n / 2) / subs
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`insert into lifecycle.namespaces (parent_id, type, path, name) select $1, 'group', 's' || i, 's' from generate_series(1, $2) i`, []any{group, subs}},
		{`insert into lifecycle.namespaces (parent_id, type, path, name)
			select s.id, 'project', 'p' || i, 'p' from lifecycle.namespaces s, generate_series(1, $2) i where s.parent_id = $1`, []any{group, below}},
		{`insert into lifecycle.namespaces (parent_id, type, path, name) select $1, 'project', 'q' || i, 'q' from generate_series(1, $2) i`,
			[]any{group, n - subs - subs*below}},
	} {
		if _, err := conn.Exec(ctx, q.sql, q.args...); err != nil {
			return nil, fmt.Errorf("burst of %d: %w", n, err)
		}
	}
	var first int64
	if err := conn.QueryRow(ctx, `select min(id) from lifecycle.namespaces where parent_id = $1 and type = 'group'`, group).Scan(&first); err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `select lifecycle.namespace_event($1, 'archive', null)`, first); err != nil {
		return nil, err
	}
	var facts []string
	err := conn.QueryRow(ctx, `select array_agg(f::text) from (
			select jsonb_build_object('action', 'namespace_created', 'namespace_id', n.id) f
			  from lifecycle.namespaces n where n.traversal_ids[1:cardinality(n.traversal_ids) - 1] @> array[$1::bigint]
			union all
			select jsonb_build_object('action', 'archived', 'namespace_id', $2::bigint, 'details', jsonb_build_object('to_state', 'archived'))) x`,
		group, first).Scan(&facts)
	return facts, err
}

// ApplyBurst times effective_states_apply for the facts of a burst, as the syncer calls it: from
// the outbox, where the burst left them (facts lists them, as they are there).
func ApplyBurst(ctx context.Context, conn *pgx.Conn, facts []string) (time.Duration, int64, error) {
	t0 := time.Now()
	_, rows, err := ApplyPending(ctx, conn)
	return time.Since(t0), rows, err
}

// PendFacts records facts (as fact_emit writes them: action, namespace_id, details) as
// lifecycle.facts_record leaves them for lifecycle.effective_states: audit rows, each waiting in
// lifecycle.effective_states_pending. Benchmarks and tests time the update apart from recording.
func PendFacts(ctx context.Context, conn *pgx.Conn, facts []string) error {
	_, err := conn.Exec(ctx, `
		with a as (
		  insert into lifecycle.audit_events (idempotency_key, committed_at, action, namespace_id, details)
		  select 'bench/' || gen_random_uuid(), now(), f ->> 'action', (f ->> 'namespace_id')::bigint, coalesce(f -> 'details', '{}')
		    from unnest($1::jsonb[]) f
		  returning id)
		insert into lifecycle.effective_states_pending (audit_event_id) select id from a`, facts)
	return err
}

// ApplyPending runs lifecycle.effective_states_apply, the syncer's update (the facts in the outbox
// not applied yet, and those pending): how many facts it took and rows it wrote (-1: rebuilt whole).
func ApplyPending(ctx context.Context, conn *pgx.Conn) (facts int32, written int64, err error) {
	err = conn.QueryRow(ctx, `select facts, written from lifecycle.effective_states_apply()`).Scan(&facts, &written)
	return facts, written, err
}

// burstGrowth is time(largest N ≤ 16k) / time(smallest N): what the growth bound is judged on.
func burstGrowth(runs []BurstRun) (float64, [2]int) {
	var lo, hi *BurstRun
	for i := range runs {
		r := &runs[i]
		if lo == nil || r.Creations < lo.Creations {
			lo = r
		}
		if r.Creations <= 16_000 && (hi == nil || r.Creations > hi.Creations) {
			hi = r
		}
	}
	if lo == nil || hi == nil || lo.Seconds <= 0 {
		return 0, [2]int{}
	}
	return round3(hi.Seconds / lo.Seconds), [2]int{lo.Creations, hi.Creations}
}

func runEffectiveStatesBurst(ctx context.Context, e *env) error {
	res := &BurstResult{}
	e.res.EffectiveStatesBurst = res
	var org int64
	if err := e.pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'bursts')
		returning id`, e.fixturePath("bench-bursts")).Scan(&org); err != nil {
		return err
	}
	if _, err := e.pool.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
		return err
	}
	conn, err := e.settledConn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	runs := map[int]*BurstRun{}
	res.Rebuild = RefreshRun{Method: RebuildTable}
	for round := range e.cfg.Rounds {
		for _, n := range e.cfg.BurstSizes {
			facts, err := Burst(ctx, conn, org, n, fmt.Sprintf("burst-%d-%d", round, n))
			if err != nil {
				return err
			}
			took, rows, err := ApplyBurst(ctx, conn, facts)
			if err != nil {
				return fmt.Errorf("apply of a burst of %d: %w", n, err)
			}
			if runs[n] == nil {
				runs[n] = &BurstRun{Creations: n, Facts: len(facts)}
			}
			runs[n].Rows = rows
			runs[n].Rounds = append(runs[n].Rounds, round3(took.Seconds()))
			e.log.Info("effective_states burst", "creations", n, "facts", len(facts), "rows", rows, "round", round+1, "seconds", round3(took.Seconds()))
		}
		t0 := time.Now()
		if _, err := conn.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
			return err
		}
		res.Rebuild.Rounds = append(res.Rebuild.Rounds, round3(time.Since(t0).Seconds()))
	}
	for _, n := range e.cfg.BurstSizes {
		r := runs[n]
		r.Seconds = round3(median(r.Rounds))
		res.Runs = append(res.Runs, *r)
	}
	res.Rebuild.Seconds = round3(median(res.Rebuild.Rounds))
	if err := burstLag(ctx, e, conn, org, res); err != nil {
		return err
	}
	res.Growth, res.GrowthOf = burstGrowth(res.Runs)
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&res.Namespaces); err != nil {
		return err
	}
	res.Rebuild.Namespaces = res.Namespaces
	var wrong int
	if err := conn.QueryRow(ctx, `select count(*) from lifecycle.effective_states_verify()`).Scan(&wrong); err != nil {
		return err
	}
	if wrong != 0 {
		return fmt.Errorf("%d rows of lifecycle.effective_states differ from the definition after the bursts", wrong)
	}
	return nil
}

// burstLag is the case through the syncer: a burst of the largest size, then a change of
// another group committed right after; the lag of that change.
func burstLag(ctx context.Context, e *env, conn *pgx.Conn, org int64, res *BurstResult) error {
	var probe int64
	if err := conn.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'probe', 'probe')
		returning id`, org).Scan(&probe); err != nil {
		return err
	}
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
	res.LagBurst = slices.Max(e.cfg.BurstSizes)
	for round := range e.cfg.Rounds {
		if _, err := Burst(ctx, conn, org, res.LagBurst, fmt.Sprintf("lag-%d", round)); err != nil {
			return err
		}
		event, want := "archive", "archived"
		if round%2 == 1 {
			event, want = "unarchive", "active"
		}
		if _, err := conn.Exec(ctx, `select lifecycle.namespace_event($1, $2, null)`, probe, event); err != nil {
			return err
		}
		lag, err := waitForEffectiveState(ctx, watch, probe, want, time.Now(), 5*time.Minute)
		if err != nil {
			return fmt.Errorf("a change after a burst of %d: %w\n%s", res.LagBurst, err, sp.tail())
		}
		// Its audit row may come later: the table is updated from the outbox, not from the audit.
		var stateUpdate int64
		if err := conn.QueryRow(ctx, `select max(id) from lifecycle.namespace_state_updates where namespace_id = $1`, probe).Scan(&stateUpdate); err != nil {
			return err
		}
		var audit float64
		for deadline := time.Now().Add(5 * time.Minute); ; {
			err := conn.QueryRow(ctx, `select extract(epoch from recorded_at - committed_at)::float8 from lifecycle.audit_events
				where namespace_id = $1 and (details ->> 'state_update_id')::bigint = $2`, probe, stateUpdate).Scan(&audit)
			if err == nil {
				break
			}
			if !errors.Is(err, pgx.ErrNoRows) || time.Now().After(deadline) {
				return fmt.Errorf("the audit row of a change after a burst: %w\n%s", err, sp.tail())
			}
			time.Sleep(20 * time.Millisecond)
		}
		res.Lag = append(res.Lag, round3(lag.Seconds()))
		res.AuditLag = append(res.AuditLag, round3(audit))
		e.log.Info("effective_states burst: a later change's lag", "creations", res.LagBurst, "round", round+1, "seconds", round3(lag.Seconds()),
			"recorded_after", round3(audit))
	}
	return sp.stop()
}
