package scenario

import (
	"context"
	"fmt"
	"time"
)

// HardDeleteRun is one group of Descendants hard-deleted by a cmd/sweeper run, against its floor:
// the same rows deleted raw, deepest first, in batches of hard_delete_batch_size (FloorSeconds 0
// where the floor was not run: it reads the whole remaining subtree each batch, so its own time
// grows with the square of the group).
type HardDeleteRun struct {
	Descendants    int     `json:"descendants"`
	Seconds        float64 `json:"seconds"`
	FloorSeconds   float64 `json:"floor_seconds,omitempty"`
	FixtureSeconds float64 `json:"fixture_load_seconds"`
}

// hardDeleteFloorLimit is the largest group the floor is run for.
const hardDeleteFloorLimit = 100_000

// runHardDelete loads one group of each of HardDeleteSizes descendants in an organization of its
// own, schedules its deletion through the API as the organization's owner, and runs cmd/sweeper
// once with its clock past the grace period: the group is hard-deleted batch by batch. Each batch
// must read only what it deletes, so the time grows with the group, not its square.
func runHardDelete(ctx context.Context, e *env) error {
	const owner = 900_003
	for _, size := range e.cfg.HardDeleteSizes {
		var org int64
		if err := e.pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'hard delete')
			returning id`, e.fixturePath(fmt.Sprintf("bench-hard-delete-%d", size))).Scan(&org); err != nil {
			return err
		}
		if _, err := e.pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 50)`,
			org, owner); err != nil {
			return err
		}
		start := time.Now()
		group, err := Subtree(ctx, e.pool, org, 1, size+1, 10)
		if err != nil {
			return err
		}
		run := HardDeleteRun{Descendants: size, FixtureSeconds: round3(time.Since(start).Seconds())}
		e.log.Info("hard delete fixture loaded", "descendants", size, "took", time.Since(start).Round(time.Millisecond).String())
		floor := size <= hardDeleteFloorLimit
		if floor {
			if _, err := e.pool.Exec(ctx, `insert into lifecycle_bench.namespaces select * from lifecycle.namespaces where traversal_ids[1] = $1`,
				org); err != nil {
				return err
			}
		}
		if err := analyze(ctx, e.pool); err != nil {
			return err
		}
		if _, err := e.pool.Exec(ctx, `select lifecycle.namespace_event($1, 'schedule_deletion', $2)`, group, owner); err != nil {
			return fmt.Errorf("schedule deletion of %d: %w", group, err)
		}
		if err := e.settle(ctx); err != nil {
			return err
		}
		elapsed, deleted, out, err := sweepDue(ctx, e, org)
		if err != nil {
			return err
		}
		var left int
		if err := e.pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces where traversal_ids[1] = $1 and id <> $1`, org).Scan(&left); err != nil {
			return err
		}
		if left != 0 || deleted != 1 {
			return fmt.Errorf("after the sweep: %d groups deleted of 1, %d namespaces left:\n%s", deleted, left, tail(out, 10))
		}
		run.Seconds = round3(elapsed.Seconds())
		if floor {
			raw, err := deleteDeepestFirst(ctx, e, []int64{group})
			if err != nil {
				return err
			}
			run.FloorSeconds = round3(raw.Seconds())
		}
		e.res.HardDeletes = append(e.res.HardDeletes, run)
		e.log.Info("hard delete", "descendants", size, "seconds", run.Seconds, "floor_seconds", run.FloorSeconds)
	}
	return nil
}

// hardDeleteRun is the run of a group of size descendants, if the results have one.
func (r *Results) hardDeleteRun(size int) *HardDeleteRun {
	for i, h := range r.HardDeletes {
		if h.Descendants == size {
			return &r.HardDeletes[i]
		}
	}
	return nil
}
