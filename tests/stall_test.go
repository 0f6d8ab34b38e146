package tests_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// No session outside the product's roles, and no lifecycle_app session that changes nothing, can
// make a lifecycle operation wait (docs/reliability.md, "What a session can and cannot affect"). A
// login with no grants and an application login hold, in open transactions, every advisory key the
// product ever used (the constants of all namespaces, all sibling paths and the import; every
// namespace's key and sweep claim; the sibling-path key of every path the operations make live),
// every PREPAREd
// write a reader may parse (which locks the table before privileges are checked) and the rows an
// application may lock; meanwhile every operation runs as the application or the worker and must
// finish at once. The bound that remains is documented: an application session holding a
// namespace's own row (it may UPDATE its name) holds up that namespace's own changes and creations
// directly below it, as its UPDATE would; it holds the organization's row here, and nothing below
// the organization waits.
func TestNoSessionOutsideTheProductCanMakeAnOperationWait(t *testing.T) {
	ctx := context.Background()
	// A database of its own: every wait must be one of the hostile sessions', not another test's.
	url, pool := dbtest.NewDatabasePool(t)
	const owner = int64(1001)
	ins := func(parent *int64, typ, path string) int64 { return insertNamespace(t, ctx, pool, parent, typ, path) }
	org := ins(nil, "organization", "stall-"+suffix())
	group := ins(&org, "group", "g")
	target := ins(&org, "group", "target")
	project := ins(&group, "project", "p")
	moving := ins(&group, "project", "moving")
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, $2, 50)`, org, owner); err != nil {
		t.Fatal(err)
	}
	var nextID int64
	if err := pool.QueryRow(ctx, `select max(id) + 1 from lifecycle.namespaces`).Scan(&nextID); err != nil {
		t.Fatal(err)
	}
	ids := []int64{org, group, target, project, moving}
	for i := int64(0); i < 10; i++ {
		ids = append(ids, nextID+i) // whatever the operations create next
	}
	paths := map[int64][]string{group: {"p", "moving", "fresh", "renamed", "imported"}, target: {"moving"}, org: {"g", "target"}}

	// The keys, as the SQL of 028 and before computed them.
	keys := []string{
		`-8605443955290538006`, // hashtextextended('lifecycle namespaces (all)', 0)
		`hashtextextended('lifecycle sibling paths (all)', 0)`,
		`hashtextextended('lifecycle namespace import', 0)`,
	}
	for _, id := range ids {
		keys = append(keys, fmt.Sprintf(`%d`, id), fmt.Sprintf(`%d # 3001666571030907431`, id),
			fmt.Sprintf(`hashtextextended('lifecycle sweep %d', 0)`, id))
	}
	for parent, ps := range paths {
		for _, p := range ps {
			keys = append(keys, fmt.Sprintf(`hashtextextended('lifecycle sibling path %d/%s', 0)`, parent, p))
		}
	}

	hold := func(name, group string) pgx.Tx {
		conn, err := pgx.Connect(ctx, dbtest.LoginAs(t, url, group))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			var got bool
			if err := tx.QueryRow(ctx, `select pg_try_advisory_xact_lock(`+k+`)`).Scan(&got); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		return tx
	}
	// try runs sql in a savepoint of tx and reports its error (nil when allowed).
	try := func(tx pgx.Tx, sql string, args ...any) error {
		sp, err := tx.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sp.Exec(ctx, sql, args...)
		if err != nil {
			_ = sp.Rollback(ctx)
			return err
		}
		return sp.Commit(ctx)
	}

	stranger := hold("a login with no grants", "")
	for _, sql := range []string{
		`lock table lifecycle.namespace_details in access share mode`,
		`prepare s1 as insert into lifecycle.effective_states select * from lifecycle.effective_states`,
		`select from lifecycle.namespaces for key share`,
	} {
		if err := try(stranger, sql); err == nil {
			t.Errorf("a login with no grants may %q", sql)
		}
	}
	if err := try(stranger, `listen nslifecycle_audit`); err != nil {
		t.Fatal(err)
	}
	defer stranger.Rollback(ctx)

	app := hold("an application login", "lifecycle_app")
	for _, sql := range []string{
		`prepare a1 as insert into lifecycle.effective_states select * from lifecycle.effective_states`,
		`prepare a2 as update lifecycle.namespace_details set state_metadata = '{}'`,
		`prepare a3 as insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, source) values (1, 0, 1, 'api')`,
		`prepare a4 as delete from lifecycle.namespaces`,
		`lock table lifecycle.effective_states, lifecycle.namespaces, lifecycle.namespace_details in access share mode`,
		`listen nslifecycle_audit`,
	} {
		if err := try(app, sql); err != nil {
			t.Fatalf("%q: %v", sql, err)
		}
	}
	if err := try(app, `select from lifecycle.namespaces where id = $1 for update`, org); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		`select from lifecycle.namespace_details for key share`,
		`select from lifecycle.path_claims`,
		`select from lifecycle.lock_rows for key share`,
	} {
		if err := try(app, sql); err == nil {
			t.Errorf("the application role may %q", sql)
		}
	}
	defer app.Rollback(ctx)

	appPool, err := pgxpool.New(ctx, dbtest.LoginAs(t, url, "lifecycle_app"))
	if err != nil {
		t.Fatal(err)
	}
	defer appPool.Close()
	workerPool, err := pgxpool.New(ctx, dbtest.LoginAs(t, url, "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer workerPool.Close()
	c := nslifecycle.NewClient(appPool)
	actor := owner
	ops := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"create a project", func(ctx context.Context) error {
			_, err := appPool.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', 'fresh', 'fresh')`, group)
			return err
		}},
		{"archive a project", func(ctx context.Context) error { _, err := c.Event(ctx, project, "archive", &actor, nil); return err }},
		{"unarchive it", func(ctx context.Context) error { _, err := c.Event(ctx, project, "unarchive", &actor, nil); return err }},
		{"archive a group", func(ctx context.Context) error { _, err := c.Event(ctx, group, "archive", &actor, nil); return err }},
		{"unarchive it", func(ctx context.Context) error { _, err := c.Event(ctx, group, "unarchive", &actor, nil); return err }},
		{"rename a project", func(ctx context.Context) error { _, err := c.Rename(ctx, project, "renamed", &actor); return err }},
		{"change its visibility", func(ctx context.Context) error {
			_, err := c.SetVisibility(ctx, project, "private", &actor)
			return err
		}},
		{"schedule its deletion", func(ctx context.Context) error {
			_, err := c.Transition(ctx, project, "deletion_scheduled", &actor, nil)
			return err
		}},
		{"restore it", func(ctx context.Context) error { _, err := c.Event(ctx, project, "restore", &actor, nil); return err }},
		{"request a transfer (accepted at once: the actor owns the target too)", func(ctx context.Context) error {
			r, err := c.RequestTransfer(ctx, moving, target, &actor)
			if err == nil && r.Status != "accepted" {
				err = fmt.Errorf("request %d is %s, want accepted", r.ID, r.Status)
			}
			return err
		}},
		{"move it", func(ctx context.Context) error {
			outcome, err := c.ExecuteTransfer(ctx, moving)
			if err == nil && outcome != "completed" {
				err = fmt.Errorf("outcome %q, want completed", outcome)
			}
			return err
		}},
		{"import a namespace (worker)", func(ctx context.Context) error {
			tx, err := workerPool.Begin(ctx)
			if err != nil {
				return err
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, `insert into lifecycle.namespace_imports (id, parent_id, type, path, name)
				values ((select max(id) + 1000 from lifecycle.namespaces), $1, 'project', 'imported', 'imported')`, group); err != nil {
				return err
			}
			var imported, rejected int64
			if err := tx.QueryRow(ctx, `select * from lifecycle.namespace_import_apply()`).Scan(&imported, &rejected); err != nil {
				return err
			}
			if imported != 1 || rejected != 0 {
				return fmt.Errorf("imported %d, rejected %d, want 1 and 0", imported, rejected)
			}
			return tx.Commit(ctx)
		}},
		{"the sweeper claims a namespace and gives it back (worker)", func(ctx context.Context) error {
			conn, err := workerPool.Acquire(ctx)
			if err != nil {
				return err
			}
			defer conn.Release()
			var claimed, released bool
			if err := conn.QueryRow(ctx, `select lifecycle.sweep_claim($1)`, project).Scan(&claimed); err != nil {
				return err
			}
			if err := conn.QueryRow(ctx, `select lifecycle.sweep_release($1)`, project).Scan(&released); err != nil {
				return err
			}
			if !claimed || !released {
				return fmt.Errorf("claimed %v, released %v, want both", claimed, released)
			}
			return nil
		}},
		{"rebuild effective_states (worker)", func(ctx context.Context) error {
			_, err := workerPool.Exec(ctx, `select lifecycle.effective_states_refresh()`)
			return err
		}},
		{"apply facts to effective_states (worker)", func(ctx context.Context) error {
			if _, err := pool.Exec(ctx, `with a as (insert into lifecycle.audit_events (idempotency_key, committed_at, action, namespace_id)
				values ('stall/' || gen_random_uuid(), now(), 'archived', $1) returning id)
				insert into lifecycle.effective_states_pending (audit_event_id) select id from a`, group); err != nil {
				return err
			}
			_, err := workerPool.Exec(ctx, `select lifecycle.effective_states_apply()`)
			return err
		}},
		{"record facts (worker)", func(ctx context.Context) error {
			_, err := workerPool.Exec(ctx, `select lifecycle.facts_record_pending(1000)`)
			return err
		}},
	}
	for _, op := range ops {
		opCtx, cancel := context.WithTimeout(ctx, 4*time.Second)
		start := time.Now()
		err := op.run(opCtx)
		cancel()
		if took := time.Since(start); err != nil || took > 3*time.Second {
			t.Errorf("%s: %v after %s, want done at once while other sessions hold what they can", op.name, nslifecycle.FromDB(err), took.Round(time.Millisecond))
		}
	}
}
