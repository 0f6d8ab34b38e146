package syncer

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// asyncOutcomes are the kinds of asynchronous operation and every outcome each is counted under
// (lifecycle_syncer_async_operations_total{kind,outcome}); each pair is exported from start, at 0.
// A transfer's outcome is lifecycle.namespace_transfer_execute's (completed, failed, noop), or
// error when the call itself failed.
var asyncOutcomes = map[string][]string{
	"transfer":   {"completed", "failed", "noop", "error"},
	"delete_now": {"deleted", "skipped", "failed"},
}

// job is asynchronous work a recorded fact asked for.
type job struct {
	kind        string // "transfer": move it; "delete_now": hard-delete it
	namespaceID int64
}

// asyncWorker runs jobs one at a time, off the replication stream: a slow move or delete never
// delays audit rows, and a failure is recorded on the namespace (and so in the audit) without
// stopping anything. A job lost with the process (queued, not yet run) is picked up by the
// sweeper's recovery of operations stuck in progress.
type asyncWorker struct {
	s    *Syncer
	jobs chan job
}

func (a *asyncWorker) enqueue(j job) {
	select {
	case a.jobs <- j:
	default:
		a.s.log.Warn("async queue full; the sweeper will pick this up", "kind", j.kind, "namespace_id", j.namespaceID)
	}
}

func (a *asyncWorker) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-a.jobs:
			a.do(ctx, j)
		}
	}
}

func (a *asyncWorker) do(ctx context.Context, j job) {
	s := a.s
	log := s.log.With("kind", j.kind, "namespace_id", j.namespaceID)
	q := db.New(s.pool)
	switch j.kind {
	case "transfer":
		row, err := q.TransferExecute(ctx, j.namespaceID)
		if err != nil {
			err = dberr.NotFound(err, j.namespaceID)
			s.metrics.asyncOps.WithLabelValues(j.kind, "error").Inc()
			log.Error("transfer", "err", err)
			return
		}
		outcome := ""
		if row.Outcome != nil {
			outcome = *row.Outcome
		}
		s.metrics.asyncOps.WithLabelValues(j.kind, outcome).Inc()
		log.Info("transfer", "outcome", outcome)
	case "delete_now":
		var batch *int32
		if s.cfg.HardDeleteBatch > 0 {
			b := int32(s.cfg.HardDeleteBatch)
			batch = &b
		}
		start := time.Now()
		var deleted int64
		for ctx.Err() == nil {
			b, err := q.NamespaceHardDelete(ctx, db.NamespaceHardDeleteParams{NamespaceID: j.namespaceID, BatchSize: batch})
			if err != nil {
				err = dberr.NotFound(err, j.namespaceID)
			}
			if errors.Is(err, dberr.ErrNamespaceNotFound) || errors.Is(err, dberr.ErrInvalidTransition) {
				// Gone with an ancestor, or no longer deletion_in_progress (a sweeper requeued it).
				s.metrics.asyncOps.WithLabelValues(j.kind, "skipped").Inc()
				log.Info("delete now", "outcome", "skipped", "err", err)
				return
			}
			if err != nil {
				a.deletionFailed(ctx, j.namespaceID, err)
				s.metrics.asyncOps.WithLabelValues(j.kind, "failed").Inc()
				log.Error("delete now", "err", err)
				return
			}
			if b.Deleted != nil {
				deleted += *b.Deleted
			}
			if b.Done != nil && *b.Done {
				s.metrics.asyncOps.WithLabelValues(j.kind, "deleted").Inc()
				log.Info("delete now", "outcome", "deleted", "namespaces", deleted, "took", time.Since(start).Round(time.Millisecond).String())
				return
			}
		}
	}
}

// deletionFailed requeues a failed hard delete (deletion_failed, attempt count, last_error),
// exactly as the sweeper does.
func (a *asyncWorker) deletionFailed(ctx context.Context, id int64, cause error) {
	err := pgx.BeginFunc(context.WithoutCancel(ctx), a.s.pool, func(tx pgx.Tx) error {
		_, err := db.New(tx).SweepDeletionFailed(ctx, db.SweepDeletionFailedParams{NamespaceID: id, Error: cause.Error(), MaxAttempts: 5})
		return err
	})
	if err != nil {
		a.s.log.Error("requeue failed deletion", "namespace_id", id, "err", dberr.FromDB(err))
	}
}
