package scenario

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// TransferRun is the time from accepting a transfer to its transfer_done, for subtrees of one size
// (the moving namespace included), over every move of the rounds (there and back per round).
type TransferRun struct {
	Size       int     `json:"size"`
	Mode       string  `json:"mode"`
	Moves      int     `json:"moves"`
	AcceptToMS Latency `json:"accept_to_done"`
	AcceptMS   Latency `json:"accept_call"`
	Raw        Latency `json:"raw_move"`
}

// Transfer modes.
const (
	TransferDirect = "direct" // the client calls namespace_transfer_execute right after the accept
	TransferSyncer = "syncer" // the product's path: the syncer sees transfer_started and moves it
)

// runTransfer builds a subtree of each size below a source group of the first organization, and
// moves it to a group of an organization of its own and back: requested by the owner of the side
// it leaves, accepted by the owner of the side it joins (so the accept is a call of its own). The
// floor moves the same rows raw (parent_id and every traversal_ids in one UPDATE) on the baseline
// table.
func runTransfer(ctx context.Context, e *env) error {
	src, dst, srcOwner, dstOwner, err := e.transferSides(ctx)
	if err != nil {
		return err
	}
	conn, err := connect(ctx, e.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	slot := e.cfg.Slot + "_transfer"
	if err := e.freshSlot(ctx, slot); err != nil {
		return err
	}
	defer e.freshSlot(context.WithoutCancel(ctx), slot)
	for _, size := range e.cfg.TransferSizes {
		start := time.Now()
		root, err := Subtree(ctx, e.pool, src.id, len(src.path), size, 10)
		if err != nil {
			return fmt.Errorf("subtree of %d: %w", size, err)
		}
		if _, err := e.pool.Exec(ctx, `insert into lifecycle_bench.namespaces
			select d.* from lifecycle.namespaces d, lifecycle.namespaces r
			 where r.id = $1 and d.traversal_ids >= r.traversal_ids
			   and d.traversal_ids < r.traversal_ids[1:cardinality(r.traversal_ids) - 1] || (r.id + 1)`, root); err != nil {
			return err
		}
		if err := analyze(ctx, e.pool); err != nil {
			return err
		}
		e.log.Info("transfer subtree loaded", "size", size, "took", time.Since(start).Round(time.Millisecond).String())
		for _, mode := range []string{TransferDirect, TransferSyncer} {
			var sp *syncerProc
			if mode == TransferSyncer {
				if sp, err = e.startSyncer(ctx, slot); err != nil {
					return err
				}
				// What the fixture's load and the direct moves made is recorded before the clock starts.
				if err := e.syncerCaughtUp(ctx); err != nil {
					sp.stop()
					return err
				}
			}
			run := TransferRun{Size: size, Mode: mode}
			var done, accept, raw []time.Duration
			for range e.cfg.Rounds {
				for _, leg := range []struct {
					to, from              side
					requester, acceptedBy int64
				}{{dst, src, srcOwner, dstOwner}, {src, dst, dstOwner, srcOwner}} {
					d, a, err := e.transferOnce(ctx, conn, root, leg.to.id, leg.requester, leg.acceptedBy, mode)
					if err != nil {
						if sp != nil {
							sp.stop()
						}
						return fmt.Errorf("move of %d namespaces (%s): %w", size, mode, err)
					}
					done, accept = append(done, d), append(accept, a)
					t0 := time.Now()
					if _, err := conn.Exec(ctx, `update lifecycle_bench.namespaces d
						   set traversal_ids = t.traversal_ids || d.traversal_ids[cardinality(r.traversal_ids):],
						       parent_id = case when d.id = r.id then t.id else d.parent_id end
						  from lifecycle_bench.namespaces r, lifecycle_bench.namespaces t
						 where r.id = $1 and t.id = $2 and d.traversal_ids >= r.traversal_ids
						   and d.traversal_ids < r.traversal_ids[1:cardinality(r.traversal_ids) - 1] || (r.id + 1)`, root, leg.to.id); err != nil {
						return fmt.Errorf("raw move: %w", err)
					}
					raw = append(raw, time.Since(t0))
				}
			}
			if sp != nil {
				if err := sp.stop(); err != nil {
					return err
				}
			}
			run.Moves = len(done)
			run.AcceptToMS, run.AcceptMS, run.Raw = summarize(done), summarize(accept), summarize(raw)
			e.res.Transfers = append(e.res.Transfers, run)
			e.log.Info("transfer", "size", size, "mode", mode, "moves", run.Moves, "p50_ms", run.AcceptToMS.P50,
				"max_ms", run.AcceptToMS.Max, "raw_p50_ms", run.Raw.P50)
		}
	}
	return nil
}

type side struct {
	id   int64
	path []int64
}

// transferSides makes the source group (below the first organization, its owner's) and the target
// group (in an organization of its own with another owner).
func (e *env) transferSides(ctx context.Context) (src, dst side, srcOwner, dstOwner int64, err error) {
	srcOwner, dstOwner = e.data.Owners[e.data.Roots[0]], 900_001
	err = pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', $2, 'src')
			returning id, traversal_ids`, e.data.Roots[0], e.fixturePath("bench-transfer-src")).Scan(&src.id, &src.path); err != nil {
			return err
		}
		var org int64
		if err := tx.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'transfer target')
			returning id`, e.fixturePath("bench-transfer")).Scan(&org); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 50)`, org, dstOwner); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'dst', 'dst')
			returning id, traversal_ids`, org).Scan(&dst.id, &dst.path); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `insert into lifecycle_bench.namespaces select * from lifecycle.namespaces where id in ($1, $2, $3)`, src.id, org, dst.id)
		return err
	})
	return src, dst, srcOwner, dstOwner, err
}

// transferOnce requests the move of root below `to`, accepts it, and waits for transfer_done: by
// calling namespace_transfer_execute itself (direct), or by watching the namespace until the syncer
// has moved it (syncer). Returns accept → done, and the accept call alone.
func (e *env) transferOnce(ctx context.Context, conn *pgx.Conn, root, to, requester, acceptedBy int64, mode string) (time.Duration, time.Duration, error) {
	var request int64
	var status string
	if err := conn.QueryRow(ctx, `select request_id, status from lifecycle.namespace_transfer_request($1, $2, $3)`,
		root, to, requester).Scan(&request, &status); err != nil {
		return 0, 0, fmt.Errorf("request: %w", err)
	}
	if status != "pending" {
		return 0, 0, fmt.Errorf("request %d is %s, want pending (the requester must not own the target)", request, status)
	}
	t0 := time.Now()
	if _, err := conn.Exec(ctx, `select * from lifecycle.namespace_transfer_accept($1, $2)`, request, acceptedBy); err != nil {
		return 0, 0, fmt.Errorf("accept: %w", err)
	}
	accepted := time.Since(t0)
	if mode == TransferDirect {
		var outcome string
		if err := conn.QueryRow(ctx, `select outcome from lifecycle.namespace_transfer_execute($1)`, root).Scan(&outcome); err != nil {
			return 0, 0, fmt.Errorf("execute: %w", err)
		}
		if outcome != "completed" {
			return 0, 0, fmt.Errorf("execute: outcome %s", outcome)
		}
		return time.Since(t0), accepted, nil
	}
	deadline := t0.Add(5 * time.Minute)
	for {
		var moving bool
		var parent int64
		if err := conn.QueryRow(ctx, `select state = 5, parent_id from lifecycle.namespaces where id = $1`, root).Scan(&moving, &parent); err != nil {
			return 0, 0, err
		}
		if !moving {
			if parent != to {
				var status, lastError string
				if err := conn.QueryRow(ctx, `select status, coalesce(last_error, '') from lifecycle.transfer_requests where id = $1`,
					request).Scan(&status, &lastError); err != nil {
					return 0, 0, fmt.Errorf("the transfer ended without moving (parent %d); its request: %w", parent, err)
				}
				return 0, 0, fmt.Errorf("the transfer ended without moving (parent %d): request %d %s: %s", parent, request, status, lastError)
			}
			return time.Since(t0), accepted, nil
		}
		if time.Now().After(deadline) {
			return 0, 0, fmt.Errorf("not moved 5 minutes after the accept")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
