package scenario

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// SweeperResult is one cmd/sweeper run over groups whose adjourned deletion is due, against the
// floor deleting the same rows raw in the same batches.
type SweeperResult struct {
	Groups            int     `json:"groups"`
	Namespaces        int     `json:"namespaces"`
	Seconds           float64 `json:"seconds"`
	PerSecond         float64 `json:"namespaces_per_second"`
	Deleted           int     `json:"groups_deleted"`
	RawSeconds        float64 `json:"raw_seconds"`
	RawPerSecond      float64 `json:"raw_namespaces_per_second"`
	FixtureSeconds    float64 `json:"fixture_load_seconds"`
	ScheduleLatencyMS Latency `json:"schedule_deletion"`
}

// runSweeper loads SweepGroups groups of SweepSize descendants each in an organization of their
// own, schedules their deletion through the API as the organization's owner, and runs cmd/sweeper
// once with its clock a grace period and a day ahead: it re-checks the scheduler's permission and
// hard-deletes every group, batch by batch. The floor deletes the same rows from the baseline
// table, deepest first, in batches of lifecycle.settings.hard_delete_batch_size.
func runSweeper(ctx context.Context, e *env) error {
	const owner = 900_002
	var org int64
	if err := e.pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'sweep')
		returning id`, e.fixturePath("bench-sweep")).Scan(&org); err != nil {
		return err
	}
	if _, err := e.pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 50)`, org, owner); err != nil {
		return err
	}
	start := time.Now()
	groups, err := Subtrees(ctx, e.pool, org, 1, e.cfg.SweepGroups, e.cfg.SweepSize+1, 10)
	if err != nil {
		return err
	}
	res := &SweeperResult{Groups: len(groups), Namespaces: len(groups) * (e.cfg.SweepSize + 1), FixtureSeconds: round3(time.Since(start).Seconds())}
	e.log.Info("sweeper fixture loaded", "namespaces", res.Namespaces, "took", time.Since(start).Round(time.Millisecond).String())
	if _, err := e.pool.Exec(ctx, `insert into lifecycle_bench.namespaces select * from lifecycle.namespaces where traversal_ids[1] = $1`, org); err != nil {
		return err
	}
	if err := analyze(ctx, e.pool); err != nil {
		return err
	}
	var sched []time.Duration
	for _, g := range groups {
		t0 := time.Now()
		if _, err := e.pool.Exec(ctx, `select lifecycle.namespace_event($1, 'schedule_deletion', $2)`, g, owner); err != nil {
			return fmt.Errorf("schedule deletion of %d: %w", g, err)
		}
		sched = append(sched, time.Since(t0))
	}
	res.ScheduleLatencyMS = summarize(sched)
	if err := e.settle(ctx); err != nil {
		return err
	}

	elapsed, deleted, out, err := sweepDue(ctx, e, org)
	if err != nil {
		return err
	}
	res.Seconds = round3(elapsed.Seconds())
	res.PerSecond = round3(float64(res.Namespaces) / elapsed.Seconds())
	res.Deleted = deleted
	var left int
	if err := e.pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces where traversal_ids[1] = $1 and id <> $1`, org).Scan(&left); err != nil {
		return err
	}
	if left != 0 || res.Deleted != len(groups) {
		return fmt.Errorf("after the sweep: %d groups deleted of %d, %d namespaces left:\n%s", res.Deleted, len(groups), left, tail(out, 10))
	}

	raw, err := deleteDeepestFirst(ctx, e, groups)
	if err != nil {
		return err
	}
	res.RawSeconds = round3(raw.Seconds())
	res.RawPerSecond = round3(float64(res.Namespaces) / raw.Seconds())
	e.res.Sweeper = res
	e.log.Info("sweeper", "namespaces", res.Namespaces, "seconds", res.Seconds, "per_second", int(res.PerSecond),
		"raw_per_second", int(res.RawPerSecond))
	return nil
}

// sweepDue runs cmd/sweeper once with its clock a grace period and a day ahead, over the
// scheduled deletions below org alone: the generated hierarchy's own scheduled projects would be
// due too, so they are moved out of its reach (their dates pushed a century ahead) and back
// afterwards. Returns how long the run took, the namespaces it logged deleted, and its log.
func sweepDue(ctx context.Context, e *env, org int64) (time.Duration, int, string, error) {
	if _, err := e.pool.Exec(ctx, `update lifecycle.namespaces set deletion_scheduled_at = deletion_scheduled_at + interval '100 years'
		where state = 2 and traversal_ids[1] <> $1`, org); err != nil {
		return 0, 0, "", err
	}
	defer e.pool.Exec(context.WithoutCancel(ctx), `update lifecycle.namespaces set deletion_scheduled_at = deletion_scheduled_at - interval '100 years'
		where state = 2 and deletion_scheduled_at > now() + interval '50 years'`)
	var asOf time.Time
	if err := e.pool.QueryRow(ctx, `select now() + make_interval(days => deletion_adjourned_period_days + 1) from lifecycle.settings`).Scan(&asOf); err != nil {
		return 0, 0, "", err
	}
	cmd := exec.CommandContext(ctx, e.cfg.Sweeper, "-now", asOf.Format(time.RFC3339), "-log-format", "json")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+e.cfg.DatabaseURL)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		return 0, 0, out.String(), fmt.Errorf("sweeper: %w\n%s", err, tail(out.String(), 10))
	}
	deleted := 0
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	for sc.Scan() {
		var line struct {
			Msg     string `json:"msg"`
			Outcome string `json:"outcome"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "namespace" && line.Outcome == "deleted" {
			deleted++
		}
	}
	return elapsed, deleted, out.String(), nil
}

// deleteDeepestFirst is the sweeper's floor: the groups' rows deleted from the baseline table
// (lifecycle_bench.namespaces, copied before), deepest first, in batches of
// lifecycle.settings.hard_delete_batch_size, each group's root last; no checks, no triggers.
func deleteDeepestFirst(ctx context.Context, e *env, groups []int64) (time.Duration, error) {
	var batch int
	if err := e.pool.QueryRow(ctx, `select hard_delete_batch_size from lifecycle.settings`).Scan(&batch); err != nil {
		return 0, err
	}
	// One connection planning each DELETE for its own group: a cached generic plan cannot see how
	// narrow the traversal_ids range is. (One run at 1M measured this floor at 5,200 namespaces/s
	// against 37,000 in the run before, slower than the product's sweep; a floor must not depend on
	// what the plan cache decides.)
	conn, err := e.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `set plan_cache_mode = force_custom_plan`); err != nil {
		return 0, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `reset plan_cache_mode`)
	start := time.Now()
	for _, g := range groups {
		for {
			tag, err := conn.Exec(ctx, `with r as (select traversal_ids as t from lifecycle_bench.namespaces where id = $1),
				doomed as (select d.id from lifecycle_bench.namespaces d, r
				            where d.traversal_ids > r.t and d.traversal_ids < r.t[1:cardinality(r.t) - 1] || ($1 + 1)
				            order by cardinality(d.traversal_ids) desc, d.id limit $2)
				delete from lifecycle_bench.namespaces d using doomed where d.id = doomed.id`, g, batch)
			if err != nil {
				return 0, err
			}
			if tag.RowsAffected() == 0 {
				break
			}
		}
		if _, err := conn.Exec(ctx, `delete from lifecycle_bench.namespaces where id = $1`, g); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}
