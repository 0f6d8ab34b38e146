// Package sweeper is one run of the time-based lifecycle work (docs/design.md §6): transfer-request
// expiry, adjourned deletion (seed 004) and recovery of operations stuck in progress. Every
// decision is made by the SQL functions sql/functions/sweep_*.sql under the database's locks; this
// package only loops over them, paces, logs and counts.
package sweeper

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// Config is one run's settings (cmd/sweeper's flags).
type Config struct {
	Now             time.Time     // pretend time; zero: the database's now()
	DryRun          bool          // every change is rolled back; hard deletes are only counted
	BatchSize       int           // candidates read per page
	Max             int           // namespaces handled per run; 0: no limit
	Pace            time.Duration // pause between namespaces (seed 004's staggering)
	StuckAfter      time.Duration // transfers and deletions in progress this long are resumed
	CreationTimeout time.Duration // creations in progress this long are deleted
	MaxAttempts     int           // failed hard deletes before a namespace is reported as stuck
	HardDeleteBatch int           // rows per hard-delete batch; 0: lifecycle.settings
}

// Outcome labels, as logged and counted.
const (
	OutcomeDeleted   = "deleted"
	OutcomeRestored  = "restored"
	OutcomeSkipped   = "skipped"
	OutcomeClaimed   = "claimed_elsewhere"
	OutcomeFailed    = "failed"
	OutcomeStuck     = "stuck"
	OutcomeCompleted = "completed" // a transfer moved
	OutcomeWouldDo   = "dry_run"
)

// Summary is what a run did.
type Summary struct {
	AsOf                    time.Time
	TransferRequestsExpired int
	Outcomes                map[string]map[string]int // action → outcome → count
	Stuck                   int
	Failed                  int
	Duration                time.Duration
}

func (s *Summary) count(action, outcome string) {
	if s.Outcomes[action] == nil {
		s.Outcomes[action] = map[string]int{}
	}
	s.Outcomes[action][outcome]++
	if outcome == OutcomeFailed {
		s.Failed++
	}
}

type run struct {
	cfg     Config
	log     *slog.Logger
	conn    *pgxpool.Conn // one session: the claims (lifecycle.sweep_claim) name it
	q       *db.Queries
	sum     *Summary
	handled int
	// wouldDelete holds, in a dry run, the namespaces a deletion reported so far would have
	// removed: a later candidate among them is gone in a real run, and a later deletion above
	// them removes only the rest.
	wouldDelete map[int64]bool
}

// Run performs one sweep. It returns an error only when the sweep could not run at all (no
// database, no schema); failures of single namespaces are counted in the summary.
func Run(ctx context.Context, pool *pgxpool.Pool, cfg Config, log *slog.Logger) (*Summary, error) {
	start := time.Now()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer conn.Release()
	r := &run{cfg: cfg, log: log, conn: conn, q: db.New(conn), sum: &Summary{Outcomes: map[string]map[string]int{}},
		wouldDelete: map[int64]bool{}}

	asOf := cfg.Now
	if asOf.IsZero() {
		if asOf, err = r.q.SweepDatabaseNow(ctx); err != nil {
			return nil, fmt.Errorf("read the database clock: %w", sessionHint(dberr.FromDB(err)))
		}
	}
	r.sum.AsOf = asOf
	settings, err := r.q.SettingsGet(ctx)
	if err != nil {
		return nil, fmt.Errorf("read lifecycle.settings: %w", sessionHint(dberr.FromDB(err)))
	}
	log.Info("sweep started", "as_of", asOf.UTC().Format(time.RFC3339),
		"deletion_adjourned_period_days", settings.DeletionAdjournedPeriodDays,
		"cutoff", asOf.AddDate(0, 0, -int(settings.DeletionAdjournedPeriodDays)).UTC().Format(time.RFC3339),
		"dry_run", cfg.DryRun, "batch_size", cfg.BatchSize, "max", cfg.Max, "pace", cfg.Pace.String(),
		"stuck_after", cfg.StuckAfter.String(), "creation_timeout", cfg.CreationTimeout.String(), "max_attempts", cfg.MaxAttempts)

	r.expireTransferRequests(ctx, asOf)
	r.adjournedDeletions(ctx, asOf)
	r.stuckOperations(ctx, asOf)

	r.sum.Duration = time.Since(start)
	attrs := []any{"duration", r.sum.Duration.Round(time.Millisecond).String(), "transfer_requests_expired", r.sum.TransferRequestsExpired,
		"failed", r.sum.Failed, "stuck", r.sum.Stuck}
	for action, outcomes := range r.sum.Outcomes {
		for outcome, n := range outcomes {
			attrs = append(attrs, action+"_"+outcome, n)
		}
	}
	if ctx.Err() != nil {
		log.Warn("sweep interrupted", append(attrs, "err", ctx.Err())...)
	} else {
		log.Info("sweep finished", attrs...)
	}
	return r.sum, nil
}

// inTx runs fn in a transaction on the run's connection: committed, or rolled back on error and
// in a dry run.
func (r *run) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := r.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return dberr.FromDB(err)
	}
	if r.cfg.DryRun {
		return nil
	}
	return tx.Commit(ctx)
}

// budget says whether the run may take on another namespace (--max, cancellation), pacing after
// the first.
func (r *run) budget(ctx context.Context) bool {
	if ctx.Err() != nil || (r.cfg.Max > 0 && r.handled >= r.cfg.Max) {
		return false
	}
	if r.handled > 0 && r.cfg.Pace > 0 {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(r.cfg.Pace):
		}
	}
	r.handled++
	return true
}

func (r *run) expireTransferRequests(ctx context.Context, asOf time.Time) {
	var n int32
	err := r.inTx(ctx, func(tx pgx.Tx) (err error) {
		n, err = db.New(tx).TransferRequestsExpire(ctx, asOf)
		return err
	})
	if err != nil {
		r.sum.Failed++
		r.log.Error("expire transfer requests", "err", err)
		return
	}
	r.sum.TransferRequestsExpired = int(n)
	r.log.Info("transfer requests expired", "count", n, "dry_run", r.cfg.DryRun)
}

func (r *run) adjournedDeletions(ctx context.Context, asOf time.Time) {
	var afterAt *time.Time
	var afterID *int64
	for ctx.Err() == nil {
		page, err := r.q.SweepDeletionCandidates(ctx, db.SweepDeletionCandidatesParams{
			AsOf: asOf, MaxAttempts: int32(r.cfg.MaxAttempts), PageSize: int32(r.cfg.BatchSize),
			AfterScheduledAt: afterAt, AfterID: afterID,
		})
		if err != nil {
			r.sum.Failed++
			r.log.Error("list adjourned deletions", "err", dberr.FromDB(err))
			return
		}
		for _, c := range page {
			if !r.budget(ctx) {
				return
			}
			r.adjournedDeletion(ctx, asOf, *c.NamespaceID, deref(c.FullPath))
		}
		if len(page) < r.cfg.BatchSize {
			return
		}
		last := page[len(page)-1]
		afterAt, afterID = last.DeletionScheduledAt, last.NamespaceID
	}
}

func (r *run) adjournedDeletion(ctx context.Context, asOf time.Time, id int64, path string) {
	const action = "adjourned_deletion"
	log := r.log.With("namespace_id", id, "full_path", path, "action", action)
	if r.goneInDryRun(log, action, id) {
		return
	}
	if claimed, err := r.claim(ctx, id); err != nil {
		r.sum.count(action, OutcomeFailed)
		log.Error("namespace", "outcome", OutcomeFailed, "err", err)
		return
	} else if !claimed {
		r.sum.count(action, OutcomeClaimed)
		log.Info("namespace", "outcome", OutcomeClaimed)
		return
	}
	defer r.release(ctx, id)

	var outcome, detail string
	err := r.inTx(ctx, func(tx pgx.Tx) error {
		d, err := db.New(tx).SweepAdjournedDeletion(ctx, db.SweepAdjournedDeletionParams{NamespaceID: id, AsOf: asOf})
		outcome, detail = deref(d.Outcome), deref(d.Detail)
		return err
	})
	switch {
	case err != nil:
		r.sum.count(action, OutcomeFailed)
		log.Error("namespace", "outcome", OutcomeFailed, "err", err)
	case outcome == "restored":
		r.sum.count(action, r.dry(OutcomeRestored))
		log.Warn("namespace", "outcome", r.dry(OutcomeRestored), "reason", detail)
	case outcome == "deleting":
		r.hardDelete(ctx, log, action, id, detail)
	default:
		r.sum.count(action, OutcomeSkipped)
		log.Info("namespace", "outcome", OutcomeSkipped, "reason", detail)
	}
}

// hardDelete removes a namespace in deletion_in_progress batch by batch, each batch committed on
// its own; a failure requeues it (deletion_failed) with its attempt count.
func (r *run) hardDelete(ctx context.Context, log *slog.Logger, action string, id int64, why string) {
	if r.cfg.DryRun {
		if r.goneInDryRun(log, action, id) {
			return
		}
		ids, err := r.q.NamespaceSubtreeIDs(ctx, id)
		if err != nil {
			log.Error("namespace", "outcome", OutcomeFailed, "err", dberr.FromDB(err))
			r.sum.count(action, OutcomeFailed)
			return
		}
		var size int
		for _, n := range ids {
			if !r.wouldDelete[n] {
				r.wouldDelete[n] = true
				size++
			}
		}
		r.sum.count(action, OutcomeWouldDo)
		log.Info("namespace", "outcome", OutcomeWouldDo, "would_delete_namespaces", size, "reason", why)
		return
	}
	var batch *int32
	if r.cfg.HardDeleteBatch > 0 {
		batch = ptr(int32(r.cfg.HardDeleteBatch))
	}
	q := db.New(r.conn)
	var deleted int64
	for {
		b, err := q.NamespaceHardDelete(ctx, db.NamespaceHardDeleteParams{NamespaceID: id, BatchSize: batch})
		if err != nil {
			err = dberr.NotFound(err, id)
		}
		if errors.Is(err, dberr.ErrNamespaceNotFound) {
			if deleted == 0 {
				r.sum.count(action, OutcomeSkipped)
				log.Info("namespace", "outcome", OutcomeSkipped, "reason", goneReason)
				return
			}
			break
		}
		if err != nil {
			r.deletionFailed(context.WithoutCancel(ctx), log, action, id, err)
			return
		}
		deleted += deref(b.Deleted)
		if deref(b.Done) {
			break
		}
		log.Debug("hard delete progress", "deleted", deleted, "remaining", deref(b.Remaining))
		if ctx.Err() != nil {
			r.sum.count(action, OutcomeFailed)
			log.Warn("namespace", "outcome", "interrupted", "deleted", deleted, "remaining", deref(b.Remaining))
			return
		}
	}
	r.sum.count(action, OutcomeDeleted)
	log.Info("namespace", "outcome", OutcomeDeleted, "deleted_namespaces", deleted, "reason", why)
}

// goneReason is why a namespace removed with an ancestor earlier in the run is skipped.
const goneReason = "no longer exists (removed with an ancestor's subtree)"

// goneInDryRun reports, in a dry run, a namespace that a deletion reported earlier in the run
// would have removed with its subtree: the real run finds it gone and skips it.
func (r *run) goneInDryRun(log *slog.Logger, action string, id int64) bool {
	if !r.cfg.DryRun || !r.wouldDelete[id] {
		return false
	}
	r.sum.count(action, OutcomeSkipped)
	log.Info("namespace", "outcome", OutcomeSkipped, "reason", goneReason)
	return true
}

func (r *run) deletionFailed(ctx context.Context, log *slog.Logger, action string, id int64, cause error) {
	var f db.SweepDeletionFailedRow
	err := r.inTx(ctx, func(tx pgx.Tx) (err error) {
		f, err = db.New(tx).SweepDeletionFailed(ctx, db.SweepDeletionFailedParams{NamespaceID: id, Error: cause.Error(), MaxAttempts: int32(r.cfg.MaxAttempts)})
		return err
	})
	r.sum.count(action, OutcomeFailed)
	if err != nil {
		log.Error("namespace", "outcome", OutcomeFailed, "err", cause, "requeue_err", err)
		return
	}
	if deref(f.Stuck) {
		r.sum.Stuck++
		log.Error("namespace", "outcome", OutcomeStuck, "err", cause, "attempt_count", deref(f.AttemptCount))
		return
	}
	log.Error("namespace", "outcome", OutcomeFailed, "err", cause, "attempt_count", deref(f.AttemptCount), "requeued", true)
}

func (r *run) stuckOperations(ctx context.Context, asOf time.Time) {
	ops, err := r.q.SweepStuckOperations(ctx, db.SweepStuckOperationsParams{
		AsOf: asOf, StuckAfter: interval(r.cfg.StuckAfter), CreationTimeout: interval(r.cfg.CreationTimeout),
		MaxAttempts: int32(r.cfg.MaxAttempts),
	})
	if err != nil {
		r.sum.Failed++
		r.log.Error("list stuck operations", "err", dberr.FromDB(err))
		return
	}
	for _, o := range ops {
		id, kind := deref(o.NamespaceID), deref(o.Kind)
		log := r.log.With("namespace_id", id, "full_path", deref(o.FullPath), "action", "recover_"+kind,
			"since", deref(o.Since).UTC().Format(time.RFC3339))
		if kind == "failed_deletion" {
			// Reported every run, never retried silently: an operator decides.
			r.sum.Stuck++
			r.sum.count("recover_"+kind, OutcomeStuck)
			log.Error("namespace", "outcome", OutcomeStuck, "attempt_count", deref(o.AttemptCount), "last_error", deref(o.LastError))
			continue
		}
		if !r.budget(ctx) {
			return
		}
		if claimed, err := r.claim(ctx, id); err != nil {
			r.sum.count("recover_"+kind, OutcomeFailed)
			log.Error("namespace", "outcome", OutcomeFailed, "err", err)
			continue
		} else if !claimed {
			r.sum.count("recover_"+kind, OutcomeClaimed)
			log.Info("namespace", "outcome", OutcomeClaimed)
			continue
		}
		r.recover(ctx, log, asOf, id, kind)
		r.release(ctx, id)
	}
}

func (r *run) recover(ctx context.Context, log *slog.Logger, asOf time.Time, id int64, kind string) {
	action := "recover_" + kind
	switch kind {
	case "transfer":
		var outcome string
		err := r.inTx(ctx, func(tx pgx.Tx) (err error) {
			row, err := db.New(tx).TransferExecute(ctx, id)
			outcome = deref(row.Outcome)
			return dberr.NotFound(err, id)
		})
		if err != nil {
			r.sum.count(action, OutcomeFailed)
			log.Error("namespace", "outcome", OutcomeFailed, "err", err)
			return
		}
		r.sum.count(action, r.dry(outcome))
		log.Info("namespace", "outcome", r.dry(outcome))
	case "deletion":
		r.hardDelete(ctx, log, action, id, "deletion_in_progress resumed")
	case "creation":
		var outcome, detail string
		err := r.inTx(ctx, func(tx pgx.Tx) error {
			a, err := db.New(tx).SweepAbandonedCreation(ctx, db.SweepAbandonedCreationParams{
				NamespaceID: id, AsOf: asOf, CreationTimeout: interval(r.cfg.CreationTimeout)})
			outcome, detail = deref(a.Outcome), deref(a.Detail)
			return err
		})
		switch {
		case err != nil:
			r.sum.count(action, OutcomeFailed)
			log.Error("namespace", "outcome", OutcomeFailed, "err", err)
		case outcome == "deleting":
			r.hardDelete(ctx, log, action, id, "creation timed out: "+detail)
		default:
			r.sum.count(action, OutcomeSkipped)
			log.Info("namespace", "outcome", OutcomeSkipped, "reason", detail)
		}
	}
}

// claim claims a namespace for this run (lifecycle.sweep_claim): false when another session holds
// it; an error when the claim could not be made, which is a failure of the run, not someone
// else's claim (before 038 every claim failed under an owner that is no superuser, and the run
// reported them all claimed elsewhere and exited 0).
func (r *run) claim(ctx context.Context, id int64) (bool, error) {
	ok, err := r.q.SweepClaim(ctx, id)
	if err != nil {
		return false, fmt.Errorf("claim: %w", sessionHint(dberr.FromDB(err)))
	}
	return ok, nil
}

func (r *run) release(ctx context.Context, id int64) {
	if _, err := r.q.SweepRelease(context.WithoutCancel(ctx), id); err != nil {
		r.log.Error("release", "namespace_id", id, "err", sessionHint(dberr.FromDB(err)))
	}
}

// sessionHint adds what to do to an error that shows the sweeper is behind a transaction-mode
// pooler. Its claims name its session (lifecycle.sweep_claim) and are held across the transactions
// of a namespace, so it needs a session of its own, whatever the pooler does with prepared statements.
func sessionHint(err error) error {
	if errors.Is(err, dberr.ErrTransactionPooler) {
		return fmt.Errorf("%w; the sweeper needs a session of its own (its claims of namespaces name its session and are "+
			"held across transactions): point DATABASE_URL at PostgreSQL directly or at a session-mode pool (PgBouncer pool_mode=session)", err)
	}
	return err
}

// dry marks an outcome that a dry run only simulated.
func (r *run) dry(outcome string) string {
	if r.cfg.DryRun {
		return OutcomeWouldDo
	}
	return outcome
}

func interval(d time.Duration) pgtype.Interval {
	return pgtype.Interval{Microseconds: d.Microseconds(), Valid: true}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func ptr[T any](v T) *T { return &v }
