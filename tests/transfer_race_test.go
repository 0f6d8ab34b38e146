package tests_test

import (
	"context"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// transferFixture: a project below src to be moved below dst, each group with its own owner, and a
// pending request (so the accept is a call of its own, as between two users).
type transferFixture struct {
	moving, src, dst, request int64
}

const transferSourceOwner, transferTargetOwner = int64(701), int64(702)

func newPendingTransfer(t *testing.T, ctx context.Context, pool *pgxpool.Pool, lc *nslifecycle.Client) transferFixture {
	t.Helper()
	var f transferFixture
	org := insertNS(t, ctx, pool, nil, "organization", "race-execute-"+suffix())
	f.src = insertNS(t, ctx, pool, &org, "group", "src")
	f.dst = insertNS(t, ctx, pool, &org, "group", "dst")
	f.moving = insertNS(t, ctx, pool, &f.src, "project", "app")
	own(t, ctx, pool, f.src, transferSourceOwner)
	own(t, ctx, pool, f.dst, transferTargetOwner)
	req, err := lc.RequestTransfer(ctx, f.moving, f.dst, ptr(transferSourceOwner))
	if err != nil || req.Status != "pending" {
		t.Fatalf("request: %+v %v", req, err)
	}
	f.request = req.ID
	return f
}

// finishAndCheck runs the move once more (what the syncer does for the accept's own
// transfer_started), then checks the transfer ended as accepted: request completed, namespace
// below dst and back in its permanent state.
func finishAndCheck(t *testing.T, ctx context.Context, pool *pgxpool.Pool, worker *nslifecycle.Client, f transferFixture, round int) {
	t.Helper()
	if _, err := worker.ExecuteTransfer(ctx, f.moving); err != nil {
		t.Fatalf("round %d: the accept's own execute: %v", round, err)
	}
	r, err := db.New(pool).TransferRequestGet(ctx, f.request)
	if err != nil {
		t.Fatal(err)
	}
	var parent int64
	var state string
	if err := pool.QueryRow(ctx, `select parent_id, lifecycle.state_name(state) from lifecycle.namespaces where id = $1`,
		f.moving).Scan(&parent, &state); err != nil {
		t.Fatal(err)
	}
	lastError := ""
	if r.LastError != nil {
		lastError = *r.LastError
	}
	if r.Status != "completed" || parent != f.dst || state != "ancestor_inherited" {
		t.Fatalf("round %d: request %s (%q), namespace below %d (src %d, dst %d) in %s; want completed, below dst, ancestor_inherited",
			round, r.Status, lastError, parent, f.src, f.dst, state)
	}
}

// The syncer runs a move whenever it sees a namespace enter transfer_in_progress, and replays facts
// after a restart, so a call for an earlier transfer of the same namespace can run while a new
// transfer is being accepted. Whatever the interleaving, that call never ends the new transfer:
// it moves it as accepted or leaves it to the accept's own call.
func TestAMoveRacingTheAcceptLeavesTheTransferAsAccepted(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	lc := nslifecycle.NewClient(pool)
	workerConn, err := pgx.Connect(ctx, dbtest.LoginAs(t, dbtest.URL(t), "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer workerConn.Close(ctx)
	worker := nslifecycle.NewClient(workerConn)

	t.Run("the move queued behind the accept's locks", func(t *testing.T) {
		f := newPendingTransfer(t, ctx, pool, lc)
		accept, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer accept.Rollback(ctx)
		if _, err := nslifecycle.NewClient(accept).AcceptTransfer(ctx, f.request, ptr(transferTargetOwner)); err != nil {
			t.Fatal(err)
		}
		type result struct {
			outcome string
			err     error
		}
		done := make(chan result, 1)
		go func() {
			outcome, err := worker.ExecuteTransfer(ctx, f.moving)
			done <- result{outcome, err}
		}()
		if err := waitForLockWaiter(ctx, pool, workerConn.PgConn().PID()); err != nil {
			t.Fatal(err)
		}
		if err := accept.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r.err != nil || (r.outcome != "noop" && r.outcome != "completed") {
			t.Fatalf("the move that waited for the accept: %q %v, want noop or completed", r.outcome, r.err)
		}
		finishAndCheck(t, ctx, pool, worker, f, 0)
	})

	t.Run("the move called over and over while the accept commits", func(t *testing.T) {
		for round := range 200 {
			f := newPendingTransfer(t, ctx, pool, lc)
			accepted := make(chan struct{})
			var wg sync.WaitGroup
			var acceptErr, moveErr error
			wg.Add(2)
			go func() {
				defer wg.Done()
				defer close(accepted)
				_, acceptErr = lc.AcceptTransfer(ctx, f.request, ptr(transferTargetOwner))
			}()
			go func() {
				defer wg.Done()
				for {
					select {
					case <-accepted:
						return
					default:
					}
					if _, moveErr = worker.ExecuteTransfer(ctx, f.moving); moveErr != nil {
						return
					}
				}
			}()
			wg.Wait()
			if acceptErr != nil || moveErr != nil {
				t.Fatalf("round %d: accept %v, move %v", round, acceptErr, moveErr)
			}
			finishAndCheck(t, ctx, pool, worker, f, round)
		}
	})
}
