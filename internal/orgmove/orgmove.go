// Package orgmove moves an organization from one cluster running the product to another, by the
// product's own export and import (docs/scaling.md, Cells): the source refuses every write to it
// (organization_move_out_start, NS011), its rows are read in one snapshot
// (organization_export) and streamed into the target's staging table, the target writes them in
// one transaction with their ids (organization_move_in), and the source then lets them go
// (organization_move_out_finish). Every rule is SQL; this is the order of the calls, what to do
// when one fails, and the log.
//
// At every moment at most one of the two clusters accepts writes of the organization: the
// source until the mark, neither while it moves, the target from its commit on. A failure before
// the target commits clears the mark (organization_move_out_cancel): the source serves it as
// before. A failure after leaves the source's copy frozen (writes refused, reads served): running
// the same move again finds the organization on the target and lets the source's copy go.
package orgmove

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
)

// Config is one move.
type Config struct {
	// From and To are the connection strings of the source and the target (a lifecycle_worker
	// login on each: docs/operations.md); empty uses the libpq PG* variables.
	From, To string
	// Path is the organization's path (a root).
	Path string
	// Cancel gives up a move the source holds (after a failure), if the target does not have it.
	Cancel bool
	// LockTimeout is lock_timeout on both sessions: how long a step waits behind another's locks.
	LockTimeout time.Duration
	// BatchRows is how many exported rows go to the target per COPY.
	BatchRows int
	// DrainTimeout is how long to wait, once the organization is marked, for the source's syncer
	// to record its facts and send its webhook deliveries (its webhooks leave with it); what is
	// left then is logged. 0: do not wait.
	DrainTimeout time.Duration
}

// Result says what a move did.
type Result struct {
	OrganizationID int64
	Namespaces     int64                         // the organization's namespaces when the move started
	Resumed        bool                          // a move a run before this one had started
	AlreadyIn      bool                          // the target had it already (that run ended after the target's commit)
	Exported       map[string]int64              // rows read from the source, by kind
	Moved          map[string]int64              // rows the target wrote, by kind
	Removed        map[string]int64              // rows the source let go, by kind
	Canceled       bool                          // a -cancel that cleared the mark
	Backlog        db.OrganizationMoveBacklogRow // what the source's syncer had yet to do when the export began
	Took           time.Duration
}

// RefusedError: the move did not happen and the source serves the organization as before (a
// refusal of either cluster, or a failure before the target committed, after which the mark was
// cleared).
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// IncompleteError: the organization is still marked as moving on the source (writes refused
// there), and the target may or may not have it: run the same move again to finish it (or, if
// the target does not have it, with Cancel).
type IncompleteError struct{ Err error }

func (e *IncompleteError) Error() string { return e.Err.Error() }
func (e *IncompleteError) Unwrap() error { return e.Err }

// SetupError: the move could not begin (a cluster unreachable, the two the same); nothing changed.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// exportQuery streams the export: sqlc's :many would hold the whole organization in memory.
const exportQuery = "select e.kind, e.data from lifecycle.organization_export($1) e"

// startAttempts: a start waits behind the organization's running changes and may be a deadlock's
// victim (40P01) or time out (55P03); it changes nothing when it fails.
const startAttempts = 5

// Run moves cfg.Path from cfg.From to cfg.To (or cancels, with cfg.Cancel). Its error is a
// *SetupError, a *RefusedError or an *IncompleteError.
func Run(ctx context.Context, cfg Config, log *slog.Logger) (*Result, error) {
	began := time.Now()
	if cfg.BatchRows < 1 {
		cfg.BatchRows = 5000
	}
	src, err := connect(ctx, cfg.From, cfg.LockTimeout)
	if err != nil {
		return nil, &SetupError{fmt.Errorf("source: %w", err)}
	}
	defer src.Close(context.WithoutCancel(ctx))
	tgt, err := connect(ctx, cfg.To, cfg.LockTimeout)
	if err != nil {
		return nil, &SetupError{fmt.Errorf("target: %w", err)}
	}
	defer func() { tgt.Close(context.WithoutCancel(ctx)) }()
	from, to := label(src.Config()), label(tgt.Config())
	if from == to {
		return nil, &SetupError{fmt.Errorf("the source and the target are one database (%s)", from)}
	}
	log = log.With("path", cfg.Path, "from", from, "to", to)
	res := &Result{}
	if cfg.Cancel {
		return res, cancel(ctx, src, tgt, cfg.Path, res, log)
	}
	logRanges(ctx, log, src, tgt)

	st, err := start(ctx, src, cfg.Path, to, log)
	if err != nil {
		return nil, &RefusedError{fmt.Errorf("start on the source: %w", err)}
	}
	res.OrganizationID, res.Namespaces, res.Resumed = *st.OrganizationID, *st.Namespaces, *st.Resumed
	log = log.With("organization_id", res.OrganizationID)
	log.Info("moving: writes to the organization are refused on the source", "namespaces", res.Namespaces, "resumed", res.Resumed)

	in, err := movedIn(ctx, tgt, res.OrganizationID)
	if err != nil {
		return res, &IncompleteError{fmt.Errorf("ask the target whether it has the organization: %w", err)}
	}
	if !in {
		if res.Backlog, err = drain(ctx, src, res.OrganizationID, cfg.DrainTimeout, log); err != nil {
			return res, undo(ctx, cfg, tgt, src, res, log, err)
		}
	}
	if in {
		res.AlreadyIn = true
		log.Info("the target has the organization already (an earlier run ended after its commit)")
	} else {
		t0 := time.Now()
		res.Exported, res.Moved, err = copyIn(ctx, src, tgt, res.OrganizationID, from, cfg.BatchRows, log)
		if err != nil {
			return res, undo(ctx, cfg, tgt, src, res, log, err)
		}
		log.Info("the target committed the organization; it serves it from now on", "took", time.Since(t0).Round(time.Millisecond),
			"rows", res.Moved)
	}

	t0 := time.Now()
	removed, err := db.New(src).OrganizationMoveOutFinish(ctx, res.OrganizationID)
	if err != nil {
		return res, &IncompleteError{fmt.Errorf("the target serves the organization, but the source could not let its copy go "+
			"(writes to it stay refused there; run the same move again): %w", dberr.FromDB(err))}
	}
	res.Removed = map[string]int64{}
	for _, r := range removed {
		res.Removed[*r.Kind] = *r.Removed
	}
	res.Took = time.Since(began)
	log.Info("moved: the source let the organization go", "took", time.Since(t0).Round(time.Millisecond), "removed", res.Removed,
		"total", res.Took.Round(time.Millisecond))
	return res, nil
}

func connect(ctx context.Context, url string, lockTimeout time.Duration) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["application_name"] = "orgmove"
	if lockTimeout > 0 {
		cfg.RuntimeParams["lock_timeout"] = fmt.Sprintf("%dms", lockTimeout.Milliseconds())
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return conn, nil
}

// label names a cluster in the marks and facts: host, port and database, never a password.
func label(c *pgx.ConnConfig) string {
	return fmt.Sprintf("%s:%d/%s", c.Host, c.Port, c.Database)
}

func logRanges(ctx context.Context, log *slog.Logger, src, tgt *pgx.Conn) {
	for _, side := range []struct {
		name string
		conn *pgx.Conn
	}{{"source", src}, {"target", tgt}} {
		r, err := db.New(side.conn).IdRangeGet(ctx)
		switch {
		case err != nil:
			log.Warn("could not read the id range", "side", side.name, "err", dberr.FromDB(err))
		case len(r) == 0:
			log.Warn("no id range set: ids moved there may collide with ids it hands out (lifecycle.id_range_set)", "side", side.name)
		default:
			log.Debug("id range", "side", side.name, "first_id", r[0].FirstID, "last_id", r[0].LastID)
		}
	}
}

func start(ctx context.Context, src *pgx.Conn, path, to string, log *slog.Logger) (db.OrganizationMoveOutStartRow, error) {
	for attempt := 1; ; attempt++ {
		st, err := db.New(src).OrganizationMoveOutStart(ctx, db.OrganizationMoveOutStartParams{Path: path, Peer: to})
		if err == nil {
			return st, nil
		}
		err = dberr.FromDB(err)
		var refusal *dberr.Error
		if errors.As(err, &refusal) || !dberr.Transient(err) || attempt == startAttempts || ctx.Err() != nil {
			return st, err
		}
		log.Warn("start waited too long behind the organization's changes, or was a deadlock's victim; trying again",
			"attempt", attempt, "err", err)
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
	}
}

// drain waits until the source's syncer has recorded the organization's facts and sent its
// webhook deliveries (no new ones come: its writes are refused), at most timeout; what is left is
// logged, since the organization's webhooks leave with it.
func drain(ctx context.Context, src *pgx.Conn, org int64, timeout time.Duration, log *slog.Logger) (db.OrganizationMoveBacklogRow, error) {
	deadline := time.Now().Add(timeout)
	for {
		b, err := db.New(src).OrganizationMoveBacklog(ctx, org)
		if err != nil {
			return b, fmt.Errorf("read the source's backlog: %w", dberr.FromDB(err))
		}
		if b.Facts == 0 && b.Deliveries == 0 {
			return b, nil
		}
		if !time.Now().Before(deadline) {
			log.Warn("the source's syncer has not caught up with the organization: facts waiting there are recorded there later, "+
				"and deliveries to its webhooks (which leave with it) are not sent", "facts_waiting", b.Facts, "deliveries_pending", b.Deliveries,
				"drain_timeout", timeout)
			return b, nil
		}
		log.Debug("waiting for the source's syncer", "facts_waiting", b.Facts, "deliveries_pending", b.Deliveries)
		select {
		case <-ctx.Done():
			return b, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// movedIn: the target's record says the organization came in (a move whose target committed).
func movedIn(ctx context.Context, tgt *pgx.Conn, org int64) (bool, error) {
	rows, err := db.New(tgt).OrganizationMoveGet(ctx, org)
	if err != nil {
		return false, dberr.FromDB(err)
	}
	return len(rows) == 1 && rows[0].Direction == "in", nil
}

// commitError: the target's COMMIT failed, so it may or may not have happened.
type commitError struct{ err error }

func (e *commitError) Error() string { return "commit on the target: " + e.err.Error() }
func (e *commitError) Unwrap() error { return e.err }

// copyIn streams the export from the source into the target's staging table and has the target
// write it, in one transaction of the target.
func copyIn(ctx context.Context, src, tgt *pgx.Conn, org int64, from string, batchRows int,
	log *slog.Logger) (exported, moved map[string]int64, err error) {
	tx, err := tgt.Begin(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("begin on the target: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	q := db.New(tx)

	rows, err := src.Query(ctx, exportQuery, org)
	if err != nil {
		return nil, nil, fmt.Errorf("export on the source: %w", dberr.FromDB(err))
	}
	defer rows.Close()
	exported = map[string]int64{}
	batch := make([]db.OrganizationImportsCopyParams, 0, batchRows)
	var total int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := q.OrganizationImportsCopy(ctx, batch); err != nil {
			return fmt.Errorf("copy into the target: %w", dberr.FromDB(err))
		}
		total += int64(len(batch))
		log.Debug("copied", "rows", total)
		batch = batch[:0]
		return nil
	}
	for rows.Next() {
		var p db.OrganizationImportsCopyParams
		if err := rows.Scan(&p.Kind, &p.Data); err != nil {
			return nil, nil, fmt.Errorf("export on the source: %w", err)
		}
		p.OrganizationID = org
		exported[p.Kind]++
		if batch = append(batch, p); len(batch) == batchRows {
			if err := flush(); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("export on the source: %w", dberr.FromDB(err))
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	delete(exported, "header")
	log.Info("exported and copied", "rows", exported)

	in, err := q.OrganizationMoveIn(ctx, db.OrganizationMoveInParams{OrganizationID: org, Peer: from})
	if err != nil {
		return nil, nil, fmt.Errorf("move in on the target: %w", dberr.FromDB(err))
	}
	moved = map[string]int64{}
	for _, r := range in {
		moved[*r.Kind] = *r.Moved
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, nil, &commitError{dberr.FromDB(err)}
	}
	return exported, moved, nil
}

// undo ends a move whose import failed: the mark goes, unless the target may have committed (a
// COMMIT whose answer was lost), in which case a fresh session asks it first.
func undo(ctx context.Context, cfg Config, tgt, src *pgx.Conn, res *Result, log *slog.Logger, cause error) error {
	ctx = context.WithoutCancel(ctx)
	var ce *commitError
	var pg *pgconn.PgError
	if errors.As(cause, &ce) && !errors.As(cause, &pg) {
		// Not the server's answer: the connection broke during COMMIT. Ask again.
		conn, err := connect(ctx, cfg.To, cfg.LockTimeout)
		if err != nil {
			return &IncompleteError{fmt.Errorf("%w; the target cannot be asked whether it committed (%v): run the same move again", cause, err)}
		}
		defer conn.Close(ctx)
		in, err := movedIn(ctx, conn, res.OrganizationID)
		if err != nil {
			return &IncompleteError{fmt.Errorf("%w; the target cannot be asked whether it committed (%v): run the same move again", cause, err)}
		}
		if in {
			return &IncompleteError{fmt.Errorf("%w; the target did commit: run the same move again to let the source's copy go", cause)}
		}
	}
	if err := cancelMark(ctx, cfg, src, log); err != nil {
		return &IncompleteError{fmt.Errorf("%w; and clearing the mark on the source failed (%v): run with -cancel", cause, err)}
	}
	log.Warn("the move failed before the target committed; the mark is cleared and the source serves the organization", "err", cause)
	return &RefusedError{cause}
}

// cancelMark clears the source's mark, from a new session when the move's own was lost (an
// interrupted export closes it): the mark is taken over once the server has seen that session go.
func cancelMark(ctx context.Context, cfg Config, src *pgx.Conn, log *slog.Logger) error {
	if src.IsClosed() {
		conn, err := connect(ctx, cfg.From, cfg.LockTimeout)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		src = conn
	}
	for attempt := 1; ; attempt++ {
		ok, err := db.New(src).OrganizationMoveOutCancel(ctx, cfg.Path)
		err = dberr.FromDB(err)
		switch {
		case err == nil && ok:
			return nil
		case err == nil:
			return errors.New("the organization was not moving out of the source")
		case errors.Is(err, dberr.ErrOrganizationMoving) && attempt < 20:
			log.Debug("the source still sees the move's first session; waiting for it to go", "err", err)
			time.Sleep(250 * time.Millisecond)
		default:
			return err
		}
	}
}

// cancel clears the source's mark of a move the target does not have.
func cancel(ctx context.Context, src, tgt *pgx.Conn, path string, res *Result, log *slog.Logger) error {
	moves, err := db.New(src).OrganizationMoveGetByPath(ctx, path)
	if err != nil {
		return &SetupError{fmt.Errorf("source: %w", dberr.FromDB(err))}
	}
	if len(moves) == 0 {
		log.Info("nothing to cancel: the organization is not moving out of the source")
		return nil
	}
	res.OrganizationID = moves[0].OrganizationID
	in, err := movedIn(ctx, tgt, res.OrganizationID)
	if err != nil {
		return &IncompleteError{fmt.Errorf("ask the target whether it has the organization: %w", err)}
	}
	if in {
		return &IncompleteError{errors.New("the target has the organization already: run the move again (without -cancel) to finish it")}
	}
	ok, err := db.New(src).OrganizationMoveOutCancel(ctx, path)
	if err != nil {
		return &RefusedError{fmt.Errorf("cancel on the source: %w", dberr.FromDB(err))}
	}
	res.Canceled = ok
	log.Info("canceled: the source serves the organization again", "organization_id", res.OrganizationID, "canceled", ok)
	return nil
}
