package tests_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func ptr[T any](v T) *T { return &v }

// insertNS creates a namespace with a plain INSERT and returns its id.
func insertNS(t *testing.T, ctx context.Context, pool *pgxpool.Pool, parent *int64, typ, path string) int64 {
	t.Helper()
	ns, err := db.New(pool).NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: parent, Type: typ, Path: path, Name: path})
	if err != nil {
		t.Fatalf("insert %s: %v", path, err)
	}
	return ns.ID
}

func own(t *testing.T, ctx context.Context, pool *pgxpool.Pool, namespaceID, userID int64) {
	t.Helper()
	if _, err := db.New(pool).MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: namespaceID, UserID: userID, AccessLevel: 50}); err != nil {
		t.Fatal(err)
	}
}

// Accept and cancel of one pending request, at the same moment, many times: exactly one wins, the
// other is refused with NS009, and the namespace's state matches the winner.
func TestConcurrentAcceptAndCancelOneWins(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	lc := nslifecycle.NewClient(pool)
	const sourceOwner, targetOwner = int64(501), int64(502)
	for i := 0; i < 30; i++ {
		org := insertNS(t, ctx, pool, nil, "organization", "race-accept-"+suffix())
		src := insertNS(t, ctx, pool, &org, "group", "src")
		dst := insertNS(t, ctx, pool, &org, "group", "dst")
		moving := insertNS(t, ctx, pool, &src, "project", "app")
		own(t, ctx, pool, src, sourceOwner)
		own(t, ctx, pool, dst, targetOwner)
		req, err := lc.RequestTransfer(ctx, moving, dst, ptr(sourceOwner))
		if err != nil || req.Status != "pending" {
			t.Fatalf("round %d: request: %+v %v", i, req, err)
		}

		var wg sync.WaitGroup
		start := make(chan struct{})
		var acceptErr, cancelErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, acceptErr = lc.AcceptTransfer(ctx, req.ID, ptr(targetOwner))
		}()
		go func() {
			defer wg.Done()
			<-start
			_, cancelErr = lc.CancelTransfer(ctx, req.ID, ptr(sourceOwner))
		}()
		close(start)
		wg.Wait()

		if (acceptErr == nil) == (cancelErr == nil) {
			t.Fatalf("round %d: accept err %v, cancel err %v: want exactly one to succeed", i, acceptErr, cancelErr)
		}
		loser := acceptErr
		if loser == nil {
			loser = cancelErr
		}
		if !errors.Is(loser, nslifecycle.ErrTransferRequestClosed) {
			t.Fatalf("round %d: the losing call failed with %v, want NS009", i, loser)
		}
		r, err := db.New(pool).TransferRequestGet(ctx, req.ID)
		if err != nil {
			t.Fatal(err)
		}
		es, err := lc.EffectiveState(ctx, moving)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case acceptErr == nil && (r.Status != "accepted" || es.State != "transfer_in_progress"):
			t.Fatalf("round %d: accept won but request %s, namespace %s", i, r.Status, es.State)
		case cancelErr == nil && (r.Status != "canceled" || es.State != "ancestor_inherited"):
			t.Fatalf("round %d: cancel won but request %s, namespace %s", i, r.Status, es.State)
		}
	}
}

// A transfer of a large subtree (100k namespaces by default; NSLIFECYCLE_TRANSFER_SUBTREE to
// change it) while a reader loop counts the subtree under its old and its new path prefix in every
// snapshot it takes: each snapshot sees the whole subtree in one place, never part of it.
func TestTransferOfALargeSubtreeIsNeverSeenHalfMoved(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	lc := nslifecycle.NewClient(pool)
	size := 100_000
	if s := os.Getenv("NSLIFECYCLE_TRANSFER_SUBTREE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 {
			t.Fatalf("NSLIFECYCLE_TRANSFER_SUBTREE=%q: want a number >= 100", s)
		}
		size = n
	}
	const owner = int64(601)
	org := insertNS(t, ctx, pool, nil, "organization", "big-"+suffix())
	own(t, ctx, pool, org, owner)
	src := insertNS(t, ctx, pool, &org, "group", "src")
	dst := insertNS(t, ctx, pool, &org, "group", "dst")
	root := insertNS(t, ctx, pool, &src, "group", "moving")
	// The subtree: the root, 100 subgroups, and projects spread over them.
	start := time.Now()
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'group', 'g' || g, 'g' from generate_series(1, 100) g`, root); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select (select array_agg(id order by id) from lifecycle.namespaces where parent_id = $1)[g % 100 + 1],
		       'project', 'p' || g, 'p'
		  from generate_series(1, $2::int) g`, root, size-101); err != nil {
		t.Fatal(err)
	}
	t.Logf("created a subtree of %d namespaces in %s", size, time.Since(start).Round(time.Millisecond))

	var oldPrefix, newParent []int64
	if err := pool.QueryRow(ctx, `select traversal_ids from lifecycle.namespaces where id = $1`, root).Scan(&oldPrefix); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `select traversal_ids from lifecycle.namespaces where id = $1`, dst).Scan(&newParent); err != nil {
		t.Fatal(err)
	}
	newPrefix := append(append([]int64{}, newParent...), root)
	upper := func(p []int64) []int64 {
		u := append([]int64{}, p...)
		u[len(u)-1]++
		return u
	}

	req, err := lc.RequestTransfer(ctx, root, dst, ptr(owner))
	if err != nil || req.Status != "accepted" {
		t.Fatalf("request (owner of both sides, so accepted at once): %+v %v", req, err)
	}

	type observation struct {
		oldN, newN int
		during     bool
	}
	var (
		observations []observation
		moving       = make(chan struct{})
		moved        = make(chan struct{})
		readerDone   = make(chan error, 1)
	)
	observe := func(during bool) (observation, error) {
		o := observation{during: during}
		err := pool.QueryRow(ctx, `select
			count(*) filter (where traversal_ids >= $1 and traversal_ids < $2),
			count(*) filter (where traversal_ids >= $3 and traversal_ids < $4)
			from lifecycle.namespaces
			where (traversal_ids >= $1 and traversal_ids < $2) or (traversal_ids >= $3 and traversal_ids < $4)`,
			oldPrefix, upper(oldPrefix), newPrefix, upper(newPrefix)).Scan(&o.oldN, &o.newN)
		return o, err
	}
	go func() {
		for {
			select {
			case <-moved:
				// One snapshot taken after the move committed.
				o, err := observe(false)
				observations = append(observations, o)
				readerDone <- err
				return
			default:
			}
			inMove := false
			select {
			case <-moving:
				inMove = true
			default:
			}
			o, err := observe(inMove)
			if err != nil {
				readerDone <- err
				return
			}
			observations = append(observations, o)
		}
	}()

	time.Sleep(50 * time.Millisecond)
	close(moving)
	moveStart := time.Now()
	outcome, err := lc.ExecuteTransfer(ctx, root)
	moveTook := time.Since(moveStart)
	close(moved)
	if rerr := <-readerDone; rerr != nil {
		t.Fatal(rerr)
	}
	if err != nil || outcome != "completed" {
		t.Fatalf("execute: %q %v", outcome, err)
	}

	var during, oldSeen, newSeen int
	for i, o := range observations {
		switch {
		case o.oldN == size && o.newN == 0:
			oldSeen++
		case o.oldN == 0 && o.newN == size:
			newSeen++
		default:
			t.Fatalf("observation %d saw %d namespaces under the old path and %d under the new, want all %d in one place",
				i, o.oldN, o.newN, size)
		}
		if o.during {
			during++
		}
	}
	t.Logf("moved %d namespaces in %s; %d snapshots (%d while the move ran): %d fully old, %d fully new",
		size, moveTook.Round(time.Millisecond), len(observations), during, oldSeen, newSeen)
	if oldSeen == 0 || newSeen == 0 || during == 0 {
		t.Fatalf("the reader must see the subtree before and after, and read while it moved: old %d new %d during %d",
			oldSeen, newSeen, during)
	}
	es, err := lc.EffectiveState(ctx, root)
	if err != nil || es.State != "ancestor_inherited" {
		t.Fatalf("after the move: %+v %v, want back to ancestor_inherited", es, err)
	}
}

// A hard delete whose connection dies in the middle of a batch loses that batch only: resumed by
// another connection it finishes, nothing stays half-deleted, and the snapshot counts every
// descendant.
func TestHardDeleteKilledHalfwayResumes(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	lc := nslifecycle.NewClient(pool)
	org := insertNS(t, ctx, pool, nil, "organization", "doomed-"+suffix())
	root := insertNS(t, ctx, pool, &org, "group", "root")
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'group', 'g' || g, 'g' from generate_series(1, 20) g`, root); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select s.id, 'project', 'p' || g, 'p' from lifecycle.namespaces s, generate_series(1, 99) g
		 where s.parent_id = $1`, root); err != nil {
		t.Fatal(err)
	}
	const descendants = 20 + 20*99
	for _, ev := range []string{"schedule_deletion", "deletion_start"} {
		if _, err := lc.Event(ctx, root, ev, nil, nil); err != nil {
			t.Fatal(err)
		}
	}

	batch := int32(300)
	for i := 0; i < 3; i++ {
		if _, err := lc.HardDelete(ctx, root, &batch); err != nil {
			t.Fatal(err)
		}
	}

	// A batch in a transaction whose backend is killed before it commits.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nslifecycle.NewClient(tx).HardDelete(ctx, root, &batch); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "select pg_terminate_backend($1)", conn.Conn().PgConn().PID()); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Fatal("the killed transaction committed")
	}
	conn.Release()

	var left int
	var done int64
	err = pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces n, lifecycle.namespaces r
		                          where r.id = $1 and n.traversal_ids > r.traversal_ids
		                            and n.traversal_ids < r.traversal_ids[1:2] || (r.traversal_ids[3] + 1)),
		       (select (state_metadata #>> '{progress,done}')::bigint from lifecycle.namespace_details where namespace_id = $1)`,
		root).Scan(&left, &done)
	if err != nil {
		t.Fatal(err)
	}
	if left != descendants-900 || done != 900 {
		t.Fatalf("after the kill: %d descendants left and progress done %d, want %d and 900 (the killed batch undone)",
			left, done, descendants-900)
	}

	for i := 0; ; i++ {
		b, err := lc.HardDelete(ctx, root, &batch)
		if err != nil {
			t.Fatal(err)
		}
		if b.Done {
			break
		}
		if i > 20 {
			t.Fatal("the resumed delete does not finish")
		}
	}
	var rows, snapshots, count int64
	err = pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces where traversal_ids[2] = $1),
		(select count(*) from lifecycle.deleted_namespaces where namespace_id = $1),
		(select descendant_count from lifecycle.deleted_namespaces where namespace_id = $1)`, root).Scan(&rows, &snapshots, &count)
	if err != nil {
		t.Fatal(err)
	}
	if rows != 0 || snapshots != 1 || count != descendants {
		t.Fatalf("after resuming: %d rows left, %d snapshots with descendant_count %d; want 0, 1, %d", rows, snapshots, count, descendants)
	}
	if b, err := lc.HardDelete(ctx, root, &batch); err != nil || !b.Done || b.Deleted != 0 {
		t.Fatalf("a call after the end: %+v %v, want done with nothing deleted", b, err)
	}
}

// CALL lifecycle.namespace_hard_delete_all deletes a whole subtree, batch after batch, each
// committed, as a lifecycle_worker login (until 011 every CALL failed at its first COMMIT: a
// procedure with a SET clause may not commit).
func TestHardDeleteAllRunsEveryBatchAsAWorker(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	var root int64
	if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'o') returning id`,
		"all-"+suffix()).Scan(&root); err != nil {
		t.Fatal(err)
	}
	var doomed int64
	if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'doomed', 'd') returning id`,
		root).Scan(&doomed); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'project', 'p' || i, 'p' from generate_series(1, 25) i`, doomed); err != nil {
		t.Fatal(err)
	}
	lc := nslifecycle.NewClient(pool)
	for _, ev := range []string{"schedule_deletion", "deletion_start"} {
		if _, err := lc.Event(ctx, doomed, ev, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	worker, err := pgx.Connect(ctx, dbtest.LoginAs(t, dbtest.URL(t), "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close(ctx)
	if _, err := worker.Exec(ctx, `call lifecycle.namespace_hard_delete_all($1, 4)`, doomed); err != nil {
		t.Fatalf("call namespace_hard_delete_all as a worker: %v", err)
	}
	var left, snapshots int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces where $1 = any (traversal_ids)),
		(select count(*) from lifecycle.deleted_namespaces where namespace_id = $1 and descendant_count = 25)`, doomed).Scan(&left, &snapshots); err != nil {
		t.Fatal(err)
	}
	if left != 0 || snapshots != 1 {
		t.Fatalf("after the call: %d namespaces of the subtree left, %d snapshots of its root with 25 descendants; want 0 and 1", left, snapshots)
	}
}
