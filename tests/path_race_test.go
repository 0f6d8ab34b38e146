package tests_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// Path races (docs/design.md §3.5): every write that makes a path live below a parent (create,
// rename, restore, move) takes the sibling-path lock before it checks its siblings, so of two
// writers racing for one path the second waits for the first to commit and is refused with NS006,
// in either order; no client meets the unique index's 23505.

// siblings is a parent group with a live sibling "s" (to rename) and a sibling "x" scheduled for
// deletion (its path is free, and a restore makes it live again), owned by user 1001.
type siblings struct {
	parent, renamable, scheduled int64
}

const pathOwner = int64(1001)

func newSiblings(t *testing.T, ctx context.Context, pool *pgxpool.Pool) siblings {
	t.Helper()
	ins := func(parent *int64, typ, path string) int64 { return insertNamespace(t, ctx, pool, parent, typ, path) }
	org := ins(nil, "organization", "paths-"+suffix())
	var s siblings
	s.parent = ins(&org, "group", "team")
	s.renamable = ins(&s.parent, "project", "s")
	s.scheduled = ins(&s.parent, "project", "x")
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 50)`,
		org, pathOwner); err != nil {
		t.Fatal(err)
	}
	owner := pathOwner
	if _, err := nslifecycle.NewClient(pool).Event(ctx, s.scheduled, "schedule_deletion", &owner, nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// pathOp is one writer racing for the path "x" below the parent.
type pathOp struct {
	name string
	run  func(ctx context.Context, tx pgx.Tx, s siblings) error
}

var (
	insertX = pathOp{"insert x", func(ctx context.Context, tx pgx.Tx, s siblings) error {
		_, err := db.New(tx).NamespaceInsert(ctx, db.NamespaceInsertParams{ParentID: &s.parent, Type: "project", Path: "x", Name: "x"})
		return nslifecycle.FromDB(err)
	}}
	renameToX = pathOp{"rename s to x", func(ctx context.Context, tx pgx.Tx, s siblings) error {
		owner := pathOwner
		_, err := nslifecycle.NewClient(tx).Rename(ctx, s.renamable, "x", &owner)
		return err
	}}
	restoreX = pathOp{"restore the scheduled x", func(ctx context.Context, tx pgx.Tx, s siblings) error {
		owner := pathOwner
		_, err := nslifecycle.NewClient(tx).Event(ctx, s.scheduled, "restore", &owner, nil)
		return err
	}}
	// bulkInsertWithX inserts 1,500 projects in one statement, "x" the 1,200th: one statement
	// claiming many paths, each held until it commits.
	bulkInsertWithX = pathOp{"bulk insert of 1,500 with x", func(ctx context.Context, tx pgx.Tx, s siblings) error {
		_, err := tx.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
			select $1, 'project', p, p
			  from (select case when i = 1200 then 'x' else 'bulk-' || i end as p from generate_series(1, 1500) i) v`, s.parent)
		return nslifecycle.FromDB(err)
	}}
)

// pathRace runs first in a transaction held open until second waits for a lock, then commits it
// and returns second's verdict.
func pathRace(t *testing.T, ctx context.Context, pool *pgxpool.Pool, s siblings, first, second pathOp) error {
	t.Helper()
	return race(t, ctx, pool, family{}, op{name: first.name, run: func(ctx context.Context, tx pgx.Tx, _ family) error {
		return first.run(ctx, tx, s)
	}}, op{name: second.name, run: func(ctx context.Context, tx pgx.Tx, _ family) error {
		return second.run(ctx, tx, s)
	}})
}

func TestEveryPathRaceEndsInNS006(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	const rounds = 5
	cases := []struct{ first, second pathOp }{
		{insertX, insertX},
		{insertX, renameToX}, {renameToX, insertX},
		{insertX, restoreX}, {restoreX, insertX},
		{renameToX, restoreX}, {restoreX, renameToX},
		{bulkInsertWithX, insertX}, {insertX, bulkInsertWithX},
		{bulkInsertWithX, restoreX}, {restoreX, bulkInsertWithX},
	}
	for _, c := range cases {
		t.Run(c.first.name+", then "+c.second.name, func(t *testing.T) {
			for i := 0; i < rounds; i++ {
				s := newSiblings(t, ctx, pool)
				err := pathRace(t, ctx, pool, s, c.first, c.second)
				if !errors.Is(err, nslifecycle.ErrNameTaken) {
					t.Fatalf("round %d: %s after %s committed: %v, want NS006", i, c.second.name, c.first.name, err)
				}
				var live int
				if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces
					where parent_id = $1 and path = 'x' and state not in (2, 4)`, s.parent).Scan(&live); err != nil {
					t.Fatal(err)
				}
				if live != 1 {
					t.Fatalf("round %d: %d live namespaces hold x, want 1", i, live)
				}
			}
		})
	}
}

// A transaction that creates many namespaces holds no lock per path in PostgreSQL's shared, bounded
// lock table (max_locks_per_transaction × connections): each path is claimed with a row of
// lifecycle.path_claims, inserted and deleted at once, which waits others without a lock slot.
// Nothing of the claims is left for anyone to see, and no advisory key is taken.
func TestALargeInsertHoldsNoLockPerPath(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	s := newSiblings(t, ctx, pool)
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'project', 'many-' || i, 'many' from generate_series(1, 3000) i`, s.parent); err != nil {
		t.Fatal(err)
	}
	var advisory, other, claims int
	if err := tx.QueryRow(ctx, `select count(*) filter (where locktype = 'advisory'),
		count(*) filter (where locktype not in ('relation', 'virtualxid', 'transactionid')),
		(select count(*) from lifecycle.path_claims)
		from pg_locks where pid = pg_backend_pid()`).Scan(&advisory, &other, &claims); err != nil {
		t.Fatal(err)
	}
	if advisory != 0 {
		t.Errorf("3,000 inserted namespaces hold %d advisory locks, want none", advisory)
	}
	if other != 0 {
		t.Errorf("3,000 inserted namespaces hold %d heavyweight locks on objects, want relation locks and the transaction's own ids only", other)
	}
	if claims != 0 {
		t.Errorf("%d path claims left visible, want none", claims)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.path_claims`).Scan(&claims); err != nil {
		t.Fatal(err)
	}
	if claims != 0 {
		t.Errorf("%d path claims left after the commit, want none", claims)
	}
}
