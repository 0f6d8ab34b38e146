package tests_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// stageForest stages n namespaces below a fresh organization (ids from base): groups of 50
// projects, every tenth project archived.
func stageForest(t *testing.T, ctx context.Context, pool *pgxpool.Pool, base int64, n int) {
	t.Helper()
	_, err := pool.Exec(ctx, `
		insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state, state_changed_at, state_changed_by)
		select $1::bigint, null::bigint, 'organization', 'forest-' || $1::bigint, 'Forest', 'active', null::timestamptz, null::bigint
		union all
		select $1::bigint + g, $1::bigint, 'group', 'g' || g, 'G', 'active', null, null from generate_series(1, ($2::int / 51) + 1) g
		union all
		select $1::bigint + 100000 + p, $1::bigint + 1 + (p - 1) / 50, 'project', 'p' || p, 'P',
		       case when p % 10 = 0 then 'archived' else 'active' end,
		       case when p % 10 = 0 then now() - interval '3 days' end, case when p % 10 = 0 then 77 end
		  from generate_series(1, $2::int - ($2::int / 51) - 2) p`, base, n)
	if err != nil {
		t.Fatal(err)
	}
}

// An import killed between two of its committed batches loses nothing and does nothing twice:
// the next run resumes with what is still staged, and in the end every staged row is imported
// exactly once, with one history row per imported state, and the tree is consistent.
func TestAnImportKilledBetweenBatchesResumes(t *testing.T) {
	ctx := context.Background()
	url, pool := dbtest.NewDatabasePool(t)
	const base, size = 200000, 12000
	stageForest(t, ctx, pool, base, size)
	var staged int
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespace_imports`).Scan(&staged); err != nil {
		t.Fatal(err)
	}

	// The import runs as a worker login, as an operator would, in batches of 500.
	workerURL := dbtest.LoginAs(t, url, "lifecycle_worker")
	run := func() (*pgx.Conn, chan error) {
		conn, err := pgx.Connect(ctx, workerURL)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := conn.Exec(ctx, `call lifecycle.namespace_import_run(500)`)
			done <- err
		}()
		return conn, done
	}
	conn, done := run()
	pid := conn.PgConn().PID()
	// Kill it once a few batches have committed.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var imported int
		if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces where id >= $1`, base).Scan(&imported); err != nil {
			t.Fatal(err)
		}
		if imported >= 3000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the import did not get going: %d imported", imported)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := pool.Exec(ctx, `select pg_terminate_backend($1)`, pid); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil {
		t.Fatal("the killed import reported success")
	}
	var importedAtKill, left int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces where id >= $1), (select count(*) from lifecycle.namespace_imports)`,
		base).Scan(&importedAtKill, &left); err != nil {
		t.Fatal(err)
	}
	if importedAtKill == 0 || importedAtKill == staged || importedAtKill+left != staged {
		t.Fatalf("at the kill: %d imported + %d still staged, want a part of %d imported and the rest staged", importedAtKill, left, staged)
	}

	conn2, done2 := run()
	defer conn2.Close(ctx)
	if err := <-done2; err != nil {
		t.Fatalf("the resumed import: %v", err)
	}
	var imported, history, importedStates, facts, leftover int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces where id >= $1),
		(select count(*) from lifecycle.namespace_state_updates where namespace_id >= $1),
		(select count(*) from lifecycle.namespaces where id >= $1 and state <> 0),
		(select count(*) from lifecycle.namespace_details where namespace_id >= $1),
		(select count(*) from lifecycle.namespace_imports)`, base).Scan(&imported, &history, &importedStates, &facts, &leftover); err != nil {
		t.Fatal(err)
	}
	if imported != staged || leftover != 0 || history != importedStates || facts != staged {
		t.Fatalf("after the resume: %d imported of %d staged, %d left staged, %d history rows for %d imported states, %d details rows",
			imported, staged, leftover, history, importedStates, facts)
	}
	var violations []string
	rows, err := pool.Query(ctx, `select invariant || ': ' || reason from lifecycle.check_invariants()`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		violations = append(violations, v)
	}
	if len(violations) > 0 {
		t.Fatalf("invariants broken after the resumed import: %v", violations)
	}
}

// An import batch and the application's INSERT of the same path below the same parent, at the
// same moment, end in NS006 for whichever comes second, never a unique violation: the batch holds
// the key of all sibling paths for its duration.
func TestAnImportAndAnInsertRacingForAPathEndInNS006(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	var parent int64
	if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'o') returning id`,
		"import-race-"+suffix()).Scan(&parent); err != nil {
		t.Fatal(err)
	}
	id := time.Now().UnixNano() % 1e12
	importX := op{name: "import x", run: func(ctx context.Context, tx pgx.Tx, _ family) error {
		if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock(hashtext('lifecycle tests: import'))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values ($1, $2, 'group', 'x', 'x')`,
			id, parent); err != nil {
			return err
		}
		var imported, rejected int64
		if err := tx.QueryRow(ctx, `select * from lifecycle.namespace_import_apply()`).Scan(&imported, &rejected); err != nil {
			return nslifecycle.FromDB(err)
		}
		if rejected > 0 {
			var code, reason string
			if err := tx.QueryRow(ctx, `select reject_code, reject_reason from lifecycle.namespace_imports where id = $1`, id).Scan(&code, &reason); err != nil {
				return err
			}
			// The import's refusal is a verdict left on the staged row, as NS006.
			return &pgconn.PgError{Code: code, Message: reason}
		}
		return nil
	}}
	insertX := op{name: "insert x", run: func(ctx context.Context, tx pgx.Tx, _ family) error {
		_, err := tx.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'x', 'x')`, parent)
		return nslifecycle.FromDB(err)
	}}
	for i, c := range []struct{ first, second op }{{importX, insertX}, {insertX, importX}} {
		if _, err := pool.Exec(ctx, `delete from lifecycle.namespace_imports where id = $1`, id); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			// The first round left x (imported or inserted); a new parent for the second.
			if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', $1, 'o') returning id`,
				"import-race-"+suffix()).Scan(&parent); err != nil {
				t.Fatal(err)
			}
			id++
		}
		err := race(t, ctx, pool, family{}, c.first, c.second)
		var pg *pgconn.PgError
		if !errors.Is(err, nslifecycle.ErrNameTaken) && !(errors.As(err, &pg) && pg.Code == "NS006") {
			t.Fatalf("%s, then %s: %v, want NS006", c.first.name, c.second.name, err)
		}
		if !strings.Contains(fmt.Sprint(err), "taken") {
			t.Fatalf("%s, then %s: %v, want the path named taken", c.first.name, c.second.name, err)
		}
	}
}

// CALL lifecycle.namespace_import_run(batch_size) commits its prepare step, which clears the
// staged rows' verdicts, before its first batch: a null, zero or negative batch size is refused
// with NS010 before that step, outside a transaction as an operator calls it, and every staged
// row keeps its code and reason.
func TestAnImportRunWithABadBatchSizeCommitsNothing(t *testing.T) {
	ctx := context.Background()
	url, pool := dbtest.NewDatabasePool(t)
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespace_imports (id, parent_id, type, path, name, reject_code, reject_reason)
		values (8100, null, 'team', 'bad-type', 'Bad', 'NS010', 'earlier verdict')`); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dbtest.LoginAs(t, url, "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, size := range []string{"null", "0", "-1"} {
		_, err := conn.Exec(ctx, `call lifecycle.namespace_import_run(`+size+`)`)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "NS010" {
			t.Fatalf("namespace_import_run(%s): %v, want NS010", size, err)
		}
		var code, reason string
		if err := pool.QueryRow(ctx, `select coalesce(reject_code, 'none'), coalesce(reject_reason, 'none') from lifecycle.namespace_imports where id = 8100`).Scan(&code, &reason); err != nil {
			t.Fatal(err)
		}
		if code != "NS010" || reason != "earlier verdict" {
			t.Fatalf("after namespace_import_run(%s): the staged row says %s %q, want its earlier verdict kept", size, code, reason)
		}
	}
}
