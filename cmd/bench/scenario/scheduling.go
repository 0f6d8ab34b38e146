package scenario

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// SchedulingRun is the latency of scheduling deletions (soft delete) of one kind of namespace, by
// the API and by the raw floor, each call on its own (one client); and of restoring them.
type SchedulingRun struct {
	Kind           string  `json:"kind"`
	Namespaces     int     `json:"namespaces"`
	MeanSubtree    int     `json:"mean_descendants"`
	API            Latency `json:"api"`
	Raw            Latency `json:"raw"`
	RestoreAPI     Latency `json:"restore_api"`
	ChangedAsAsked bool    `json:"changed_as_asked"`
}

// runScheduling schedules deletions of random projects, random groups and the heavy groups (tens of
// thousands of descendants at 1M) through lifecycle.namespace_event as their owner, timing each
// call, then restores them; the floor does the same UPDATE and history INSERT raw, on the
// baseline tables.
func runScheduling(ctx context.Context, e *env) error {
	conn, err := e.settledConn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	samples := 20 * e.cfg.Rounds
	kinds := []struct{ kind, pick string }{
		{"project", `select n.id from lifecycle.namespaces n where n.type = 'project' and n.state = 0 and n.id <> all ($2)
			and not exists (select from lifecycle.namespaces a where a.id = any (n.traversal_ids) and a.state <> 0)
			order by random() limit $1`},
		{"group", `select n.id from lifecycle.namespaces n where n.type = 'group' and n.state = 0 and n.id <> all ($2)
			and not exists (select from lifecycle.namespaces a where a.id = any (n.traversal_ids) and a.state <> 0)
			order by random() limit $1`},
		{"heavy group", `select unnest($2::bigint[]) limit $1`},
	}
	for _, k := range kinds {
		rows, err := conn.Query(ctx, k.pick, samples, e.data.Heavy)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		run := SchedulingRun{Kind: k.kind, Namespaces: len(ids), ChangedAsAsked: true}
		var api, raw, restore []time.Duration
		subtree := 0
		for _, id := range ids {
			n, err := descendants(ctx, e.pool, id)
			if err != nil {
				return err
			}
			subtree += n
			var actor int64
			if err := conn.QueryRow(ctx, `select m.user_id from lifecycle.namespaces n join lifecycle.namespace_members m
				on m.namespace_id = n.traversal_ids[1] and m.access_level = 50 where n.id = $1 order by m.user_id limit 1`, id).Scan(&actor); err != nil {
				return fmt.Errorf("owner of %d: %w", id, err)
			}
			var changed bool
			t0 := time.Now()
			if err := conn.QueryRow(ctx, `select changed from lifecycle.namespace_event($1, 'schedule_deletion', $2)`, id, actor).Scan(&changed); err != nil {
				return fmt.Errorf("schedule deletion of %d: %w", id, err)
			}
			api = append(api, time.Since(t0))
			run.ChangedAsAsked = run.ChangedAsAsked && changed
			t0 = time.Now()
			if _, err := conn.Exec(ctx, `with u as (update lifecycle_bench.namespaces set state = 2, updated_at = now() where id = $1 returning id)
				insert into lifecycle_bench.state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata)
				select id, 0, 2, 'schedule_deletion', $2, 'sql', '{}' from u`, id, actor); err != nil {
				return err
			}
			raw = append(raw, time.Since(t0))
			t0 = time.Now()
			if err := conn.QueryRow(ctx, `select changed from lifecycle.namespace_event($1, 'restore', $2)`, id, actor).Scan(&changed); err != nil {
				return fmt.Errorf("restore %d: %w", id, err)
			}
			restore = append(restore, time.Since(t0))
			run.ChangedAsAsked = run.ChangedAsAsked && changed
			if _, err := conn.Exec(ctx, `update lifecycle_bench.namespaces set state = 0 where id = $1`, id); err != nil {
				return err
			}
		}
		if len(ids) > 0 {
			run.MeanSubtree = subtree / len(ids)
		}
		run.API, run.Raw, run.RestoreAPI = summarize(api), summarize(raw), summarize(restore)
		e.res.Scheduling = append(e.res.Scheduling, run)
		e.log.Info("scheduling", "kind", k.kind, "namespaces", len(ids), "api_p50_ms", run.API.P50, "raw_p50_ms", run.Raw.P50)
	}
	return nil
}
