package tests_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// Race freedom (docs/design.md §3): two concurrent transactions must never together reach a combination
// that either would have been refused alone. Each scenario holds the first operation's
// transaction open, starts the second, checks that it waits for a lock, commits the first, and
// asserts the second then decides exactly as it would have after the first in a serial run.

// family is a small tree: root organization > grandparent group > parent group > child group.
type family struct {
	root, grandparent, parent, child int64
}

// insertNamespace creates a namespace as a client does (a plain INSERT) and returns its id.
func insertNamespace(t *testing.T, ctx context.Context, pool *pgxpool.Pool, parent *int64, typ, path string) int64 {
	t.Helper()
	ns, err := db.New(pool).NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: parent, Type: typ, Path: path, Name: path})
	if err != nil {
		t.Fatal(err)
	}
	return ns.ID
}

func newFamily(t *testing.T, ctx context.Context, pool *pgxpool.Pool) family {
	t.Helper()
	ins := func(parent *int64, typ, path string) int64 { return insertNamespace(t, ctx, pool, parent, typ, path) }
	var f family
	f.root = ins(nil, "organization", "race-"+suffix())
	f.grandparent = ins(&f.root, "group", "gp")
	f.parent = ins(&f.grandparent, "group", "p")
	f.child = ins(&f.parent, "group", "c")
	return f
}

func suffix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// op is one side of a race: it runs inside tx and returns the database's verdict.
type op struct {
	name string
	run  func(ctx context.Context, tx pgx.Tx, f family) error
}

func event(target func(family) int64, ev string) op {
	return op{name: ev, run: func(ctx context.Context, tx pgx.Tx, f family) error {
		_, err := nslifecycle.NewClient(tx).Event(ctx, target(f), ev, nil, nil)
		return err
	}}
}

func createBelow(target func(family) int64) op {
	return op{name: "create (creation_in_progress)", run: func(ctx context.Context, tx pgx.Tx, f family) error {
		var id int64
		err := tx.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name, state)
			values ($1, 'project', $2, 'new', 3) returning id`, target(f), "new-"+suffix()).Scan(&id)
		return nslifecycle.FromDB(err)
	}}
}

var (
	parentOf      = func(f family) int64 { return f.parent }
	grandparentOf = func(f family) int64 { return f.grandparent }
	childOf       = func(f family) int64 { return f.child }
)

// waitForLockWaiter waits until a backend of this database other than ours waits on a lock.
func waitForLockWaiter(ctx context.Context, pool *pgxpool.Pool, pid uint32) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var waiting bool
		err := pool.QueryRow(ctx, `select exists (select from pg_stat_activity
			where datname = current_database() and pid = $1 and wait_event_type = 'Lock')`, pid).Scan(&waiting)
		if err != nil {
			return err
		}
		if waiting {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return errors.New("the second operation never waited for a lock held by the first")
}

// race runs first (committed only after second has queued behind it), then second, and returns
// second's verdict.
func race(t *testing.T, ctx context.Context, pool *pgxpool.Pool, f family, first, second op) error {
	t.Helper()
	tx1, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx1.Rollback(ctx)
	if err := first.run(ctx, tx1, f); err != nil {
		t.Fatalf("first operation %s: %v", first.name, err)
	}

	conn2, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Release()
	pid2 := conn2.Conn().PgConn().PID()
	done := make(chan error, 1)
	go func() {
		tx2, err := conn2.Begin(ctx)
		if err != nil {
			done <- err
			return
		}
		if err := second.run(ctx, tx2, f); err != nil {
			_ = tx2.Rollback(ctx)
			done <- err
			return
		}
		done <- tx2.Commit(ctx)
	}()

	if err := waitForLockWaiter(ctx, pool, pid2); err != nil {
		t.Fatalf("%s then %s: %v", first.name, second.name, err)
	}
	if err := tx1.Commit(ctx); err != nil {
		t.Fatalf("commit %s: %v", first.name, err)
	}
	return <-done
}

func TestRacesSerialiseOnTheTreeLocks(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	const rounds = 15

	cases := []struct {
		name          string
		first, second op
		want          error // the second operation's verdict once the first has committed; nil = allowed
	}{
		{"parent schedules deletion, then child starts a transfer",
			event(parentOf, "schedule_deletion"), event(childOf, "transfer_start"), nslifecycle.ErrAncestorStateConflict},
		{"child starts a transfer, then parent schedules deletion",
			event(childOf, "transfer_start"), event(parentOf, "schedule_deletion"), nslifecycle.ErrDescendantStateConflict},
		{"grandparent schedules deletion, then grandchild starts a transfer",
			event(grandparentOf, "schedule_deletion"), event(childOf, "transfer_start"), nslifecycle.ErrAncestorStateConflict},
		{"grandchild starts a transfer, then grandparent schedules deletion",
			event(childOf, "transfer_start"), event(grandparentOf, "schedule_deletion"), nslifecycle.ErrDescendantStateConflict},
		{"parent archives, then a child is created",
			event(parentOf, "archive"), createBelow(parentOf), nslifecycle.ErrAncestorStateConflict},
		{"a child is created, then parent archives",
			createBelow(parentOf), event(parentOf, "archive"), nslifecycle.ErrDescendantStateConflict},
		{"grandparent archives, then a grandchild is created",
			event(grandparentOf, "archive"), createBelow(parentOf), nslifecycle.ErrAncestorStateConflict},
		{"a grandchild is created, then grandparent archives",
			createBelow(parentOf), event(grandparentOf, "archive"), nslifecycle.ErrDescendantStateConflict},
		{"child starts a transfer, then parent archives",
			event(childOf, "transfer_start"), event(parentOf, "archive"), nslifecycle.ErrDescendantStateConflict},
		// docs/design.md §3: a transfer may start below an archived ancestor, so after the archive commits
		// the transfer is allowed, exactly as in a serial run.
		{"parent archives, then child starts a transfer",
			event(parentOf, "archive"), event(childOf, "transfer_start"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i < rounds; i++ {
				f := newFamily(t, ctx, pool)
				err := race(t, ctx, pool, f, c.first, c.second)
				if c.want == nil && err != nil {
					t.Fatalf("round %d: second operation %s: %v, want it allowed", i, c.second.name, err)
				}
				if c.want != nil && !errors.Is(err, c.want) {
					t.Fatalf("round %d: second operation %s: %v, want %v", i, c.second.name, err, c.want)
				}
			}
		})
	}
}

// Without orchestration: both operations start together, many times. Whatever the interleaving,
// the tree never ends in a combination the guards forbid.
func TestConcurrentParentDeletionAndChildTransferNeverBothCommit(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	for i := 0; i < 40; i++ {
		f := newFamily(t, ctx, pool)
		errs := concurrently(ctx, pool, f, event(parentOf, "schedule_deletion"), event(childOf, "transfer_start"))
		if errs[0] == nil && errs[1] == nil {
			t.Fatalf("round %d: both the parent's deletion and the child's transfer committed", i)
		}
		var both int
		err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces
			where (id = $1 and state = 2) or (id = $2 and state = 5)`, f.parent, f.child).Scan(&both)
		if err != nil {
			t.Fatal(err)
		}
		if both == 2 {
			t.Fatalf("round %d: parent deletion_scheduled with child transfer_in_progress", i)
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, nslifecycle.ErrAncestorStateConflict) && !errors.Is(err, nslifecycle.ErrDescendantStateConflict) {
				t.Fatalf("round %d: unexpected error %v", i, err)
			}
		}
	}
}

func TestConcurrentParentArchiveAndChildCreationNeverBothCommit(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	for i := 0; i < 40; i++ {
		f := newFamily(t, ctx, pool)
		errs := concurrently(ctx, pool, f, event(grandparentOf, "archive"), createBelow(parentOf))
		if errs[0] == nil && errs[1] == nil {
			t.Fatalf("round %d: both the archive and a creation below it committed", i)
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, nslifecycle.ErrAncestorStateConflict) && !errors.Is(err, nslifecycle.ErrDescendantStateConflict) {
				t.Fatalf("round %d: unexpected error %v", i, err)
			}
		}
	}
}

// concurrently runs both operations in their own transactions, released at the same moment.
func concurrently(ctx context.Context, pool *pgxpool.Pool, f family, a, b op) [2]error {
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  [2]error
	)
	for i, o := range []op{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = func() error {
				tx, err := pool.Begin(ctx)
				if err != nil {
					return err
				}
				defer tx.Rollback(ctx)
				<-start
				if err := o.run(ctx, tx, f); err != nil {
					return err
				}
				return tx.Commit(ctx)
			}()
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// The gate refuses REPEATABLE READ, where guard reads would come from a snapshot older than the
// locks and two concurrent changes could each miss the other.
func TestTransitionsRefuseRepeatableRead(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	f := newFamily(t, ctx, pool)
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	_, err = nslifecycle.NewClient(tx).Event(ctx, f.child, "archive", nil, nil)
	if !errors.Is(err, nslifecycle.ErrInvalidArgument) {
		t.Fatalf("archive under REPEATABLE READ: %v, want %v", err, nslifecycle.ErrInvalidArgument)
	}
	var e *nslifecycle.Error
	if !errors.As(err, &e) || e.Hint == "" || e.HTTPStatus() != 422 {
		t.Fatalf("refusal %#v: want a hint and HTTP status 422", err)
	}
}

// A change holds its ancestors by their lock rows (docs/design.md §3.5: each one's namespace_details
// row, FOR KEY SHARE), not by their own rows: while a change below is open, another session may
// lock the ancestors' rows at once (an application renaming one holds up nothing below it), their
// lock rows cannot be taken exclusively (an ancestor's own change waits) but may be shared (a
// change beside it does not), and the changed namespace's lock row is held exclusively. Run as the
// application role.
func TestAChangeBelowHoldsItsAncestorsWithoutLockingTheirRows(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	f := newFamily(t, ctx, pool)
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 1001, 50)`, f.root); err != nil {
		t.Fatal(err)
	}
	app, err := pgx.Connect(ctx, dbtest.LoginAs(t, dbtest.URL(t), "lifecycle_app"))
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close(ctx)
	tx, err := app.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	actor := int64(1001)
	if _, err := nslifecycle.NewClient(tx).Event(ctx, f.child, "archive", &actor, nil); err != nil {
		t.Fatal(err)
	}

	other, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback(ctx)
	// Each probe in a savepoint of its own, so a refusal (55P03, NOWAIT) does not end the others.
	probe := func(sql string, args ...any) error {
		sp, err := other.Begin(ctx)
		if err != nil {
			return err
		}
		defer sp.Rollback(ctx)
		_, err = sp.Exec(ctx, sql, args...)
		return err
	}
	const (
		rowExclusive  = `select from lifecycle.namespaces where id = $1 for update nowait`
		lockExclusive = `select from lifecycle.namespace_details where namespace_id = $1 for update nowait`
		lockShared    = `select from lifecycle.namespace_details where namespace_id = $1 for key share nowait`
	)
	for _, id := range []int64{f.root, f.grandparent, f.parent} {
		if err := probe(rowExclusive, id); err != nil {
			t.Errorf("ancestor %d: its row is locked by the change below (%v), want it untouched", id, err)
		}
		if err := probe(lockExclusive, id); err == nil {
			t.Errorf("ancestor %d: its lock row taken exclusively while a change below is open, want it held shared", id)
		}
		if err := probe(lockShared, id); err != nil {
			t.Errorf("ancestor %d: its lock row not shareable (%v): a change beside the open one would wait", id, err)
		}
	}
	if err := probe(lockShared, f.child); err == nil {
		t.Error("the changed namespace's lock row is not held exclusively: a change below it would not wait")
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := probe(lockExclusive, f.root); err != nil {
		t.Errorf("the root's lock row still held after the change committed (%v)", err)
	}
}

// Logical decoding hands the syncer a commit a moment before the primary's new snapshots show it.
// lifecycle.facts_record, told of the source transactions, waits until they are visible before it
// looks for their facts: here the source transaction is still open when the syncer's call is made
// (the widest such moment); the fact is recorded once it commits, and the update of
// effective_states after it writes the row its commit makes true.
func TestFactsRecordWaitsUntilItsSourceTransactionsAreVisible(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	f := newFamily(t, ctx, pool)
	worker, err := pgx.Connect(ctx, dbtest.LoginAs(t, dbtest.URL(t), "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close(ctx)
	if _, err := worker.Exec(ctx, `select lifecycle.effective_states_refresh()`); err != nil {
		t.Fatal(err)
	}

	source, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer source.Rollback(ctx)
	var xid int64
	if err := source.QueryRow(ctx, `select pg_current_xact_id()::text::bigint & 4294967295`).Scan(&xid); err != nil {
		t.Fatal(err)
	}
	if _, err := nslifecycle.NewClient(source).Event(ctx, f.parent, "archive", nil, nil); err != nil {
		t.Fatal(err)
	}

	var factID int64
	if err := source.QueryRow(ctx, `select max(id) from lifecycle.facts`).Scan(&factID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		var recorded int
		err := worker.QueryRow(ctx, `select count(*) from lifecycle.facts_record(array[$1::bigint], null, null, null, array[$2::bigint])`,
			factID, xid).Scan(&recorded)
		if err == nil && recorded != 1 {
			err = fmt.Errorf("recorded %d facts, want its 1", recorded)
		}
		if err == nil {
			_, err = worker.Exec(ctx, `select lifecycle.effective_states_apply()`)
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the update returned while its source transaction was still invisible (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := source.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var state, effective string
	if err := pool.QueryRow(ctx, `select state, effective_state from lifecycle.effective_states where namespace_id = $1`, f.child).Scan(&state, &effective); err != nil {
		t.Fatal(err)
	}
	if state != "ancestor_inherited" || effective != "archived" {
		t.Fatalf("the child's row: state %s, effective %s; want ancestor_inherited, archived (its parent's archive)", state, effective)
	}
	var wrong int
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.effective_states_verify()`).Scan(&wrong); err != nil || wrong != 0 {
		t.Fatalf("effective_states_verify: %d rows differ (%v)", wrong, err)
	}
}
