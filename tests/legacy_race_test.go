package tests_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// Step 0.5 of the global lock order (docs/design.md §3.5, sql/functions/namespace_lock_path.sql): an
// application's legacy write and an API call on the same namespace queue instead of deadlocking,
// in either order. The application's transaction holds its legacy row from its first statement on
// (an UPDATE of a column no bridge reads, or of a bridged one); an API change of the namespace
// waits for that row before it takes any lock of the namespace, so the application's next bridged
// write (which needs the namespace) goes on, and the API call then decides on what it committed.
// Before, the API call locked the namespace, waited for the row in its write-back, and the
// application's next bridged write waited for the namespace: 40P01. Both transactions are
// lifecycle_app logins; the bridges act for owner 1001.
func TestLegacyWriteAndAPICallOnOneNamespaceNeverDeadlock(t *testing.T) {
	ctx := context.Background()
	url := dbtest.NewDatabase(t)
	admin, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(ctx, `
		create schema legacy;
		create table legacy.projects (id bigint primary key, project_namespace_id bigint not null unique,
		  description text, archived boolean not null default false, marked_for_deletion_at timestamptz,
		  marked_for_deletion_by_user_id bigint);
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 1001);
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_scheduled',
		  'marked_for_deletion_at', 'marked_for_deletion_at', 'marked_for_deletion_by_user_id', actor_id => 1001);
		grant usage on schema legacy to lifecycle_app;
		grant select, insert, update, delete on legacy.projects to lifecycle_app`); err != nil {
		t.Fatal(err)
	}
	appPool := func() *pgxpool.Pool {
		pool, err := pgxpool.New(ctx, dbtest.LoginAs(t, url, "lifecycle_app"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		return pool
	}
	legacyApp, apiApp := appPool(), appPool()

	// A project below a group below an organization owned by 1001, with its legacy row.
	project := func() int64 {
		var org, group, p int64
		root := "legacy-race-" + suffix()
		if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', $1, $1) returning id`, root).Scan(&org); err != nil {
			t.Fatal(err)
		}
		if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'g', 'g') returning id`, org).Scan(&group); err != nil {
			t.Fatal(err)
		}
		if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', 'p', 'p') returning id`, group).Scan(&p); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 1001, 50)`, org); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.Exec(ctx, `insert into legacy.projects (id, project_namespace_id) values ($1, $1)`, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exec := func(sql string) func(ctx context.Context, tx pgx.Tx, p int64) error {
		return func(ctx context.Context, tx pgx.Tx, p int64) error {
			_, err := tx.Exec(ctx, sql, p)
			return nslifecycle.FromDB(err)
		}
	}
	type step = func(ctx context.Context, tx pgx.Tx, p int64) error

	cases := []struct {
		name string
		// first runs on its own, then second starts and must wait; then firstMore runs in the first
		// transaction (it must neither wait for the second nor deadlock), which commits.
		first, second, firstMore step
		firstPool, secondPool    *pgxpool.Pool
		want                     error // the second's verdict, as after the first in a serial run
		wantState                int
	}{
		{"legacy write of another column, then an API archive, then a legacy archive",
			exec(`update legacy.projects set description = 'x' where project_namespace_id = $1`),
			exec(`select * from lifecycle.namespace_event($1, 'archive', 1001)`),
			exec(`update legacy.projects set archived = true where project_namespace_id = $1`),
			legacyApp, apiApp, nslifecycle.ErrInvalidTransition, 1},
		{"legacy archive, then an API schedule_deletion, then another legacy write",
			exec(`update legacy.projects set archived = true where project_namespace_id = $1`),
			exec(`select * from lifecycle.namespace_event($1, 'schedule_deletion', 1001)`),
			exec(`update legacy.projects set description = 'y' where project_namespace_id = $1`),
			legacyApp, apiApp, nil, 2},
		{"API archive, then a legacy schedule, then another API call",
			exec(`select * from lifecycle.namespace_event($1, 'archive', 1001)`),
			exec(`update legacy.projects set marked_for_deletion_at = now(), marked_for_deletion_by_user_id = 1001 where project_namespace_id = $1`),
			exec(`select * from lifecycle.namespace_available_transitions($1, 1001)`),
			apiApp, legacyApp, nil, 2},
		{"API archive, then a legacy unarchive",
			exec(`select * from lifecycle.namespace_event($1, 'archive', 1001)`),
			exec(`update legacy.projects set archived = false where project_namespace_id = $1`),
			exec(`select $1::bigint`),
			apiApp, legacyApp, nil, 0},
	}
	const rounds = 4
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i < rounds; i++ {
				p := project()
				tx1, err := c.firstPool.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.first(ctx, tx1, p); err != nil {
					_ = tx1.Rollback(ctx)
					t.Fatalf("round %d: first: %v", i, err)
				}
				conn2, err := c.secondPool.Acquire(ctx)
				if err != nil {
					t.Fatal(err)
				}
				pid2 := conn2.Conn().PgConn().PID()
				done := make(chan error, 1)
				go func() {
					tx2, err := conn2.Begin(ctx)
					if err != nil {
						done <- err
						return
					}
					if err := c.second(ctx, tx2, p); err != nil {
						_ = tx2.Rollback(ctx)
						done <- err
						return
					}
					done <- tx2.Commit(ctx)
				}()
				if err := waitForLockWaiter(ctx, admin, pid2); err != nil {
					t.Fatalf("round %d: %v", i, err)
				}
				// The first goes on while the second waits: never for the second (a bounded wait
				// tells a lock cycle from slowness), never 40P01.
				more, cancel := context.WithTimeout(ctx, 20*time.Second)
				err = c.firstMore(more, tx1, p)
				cancel()
				if err != nil {
					_ = tx1.Rollback(ctx)
					<-done
					conn2.Release()
					t.Fatalf("round %d: the first transaction's next statement, while the second waits: %v", i, err)
				}
				if err := tx1.Commit(ctx); err != nil {
					t.Fatalf("round %d: commit the first: %v", i, err)
				}
				err = <-done
				conn2.Release()
				if c.want == nil && err != nil {
					t.Fatalf("round %d: second: %v, want it allowed", i, err)
				}
				if c.want != nil && !errors.Is(err, c.want) {
					t.Fatalf("round %d: second: %v, want %v", i, err, c.want)
				}
				var state int
				var legacy string
				if err := admin.QueryRow(ctx, `select n.state, format('%s %s', l.archived::text, (l.marked_for_deletion_at is not null)::text)
					from lifecycle.namespaces n join legacy.projects l on l.project_namespace_id = n.id where n.id = $1`, p).Scan(&state, &legacy); err != nil {
					t.Fatal(err)
				}
				if state != c.wantState {
					t.Fatalf("round %d: state %d, want %d", i, state, c.wantState)
				}
				wantLegacy := map[int]string{0: "false false", 1: "true false", 2: "true true"}[c.wantState]
				if legacy != wantLegacy {
					t.Fatalf("round %d: legacy row (archived, marked) %s, want %s", i, legacy, wantLegacy)
				}
			}
		})
	}
	var rows int
	if err := admin.QueryRow(ctx, `select count(*) from lifecycle.legacy_bridge_check()`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 0 {
		t.Fatalf("legacy_bridge_check() reports %d disagreements", rows)
	}
}
