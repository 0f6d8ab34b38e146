package tests_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// The application login (lifecycle_app) with an owner as actor, and a worker login (for an owner
// or as the system), cannot put a namespace into a state only an operation enters
// (transfer_in_progress: the transfer's accept, which writes the request that finishes it), by the
// state API or the operation's own event: NS005, the state and the invariants unchanged. The transfer itself still starts and ends it for that login.
// Before lifecycle.states.operation_enters both calls succeeded and check_invariants reported in_progress_without_operation.
func TestTheApplicationCannotEnterAnOperationsStateByHand(t *testing.T) {
	ctx := context.Background()
	url, admin := dbtest.NewDatabasePool(t)
	var org, src, dst, project int64
	if err := admin.QueryRow(ctx, `with org as (
			insert into lifecycle.namespaces (type, path, name) values ('organization', 'acme', 'acme') returning id),
		m as (insert into lifecycle.namespace_members (namespace_id, user_id, access_level) select id, 1001, 50 from org)
		select id from org`).Scan(&org); err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		id   *int64
		typ  string
		par  *int64
		path string
	}{{&src, "group", &org, "src"}, {&dst, "group", &org, "dst"}, {&project, "project", &src, "app"}} {
		if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, $2, $3, $3) returning id`,
			*g.par, g.typ, g.path).Scan(g.id); err != nil {
			t.Fatal(err)
		}
	}
	app, err := pgxpool.New(ctx, dbtest.LoginAs(t, url, "lifecycle_app"))
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	worker, err := pgxpool.New(ctx, dbtest.LoginAs(t, url, "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close()
	lc := nslifecycle.NewClient(app)
	owner := int64(1001)

	for _, who := range []struct {
		name  string
		c     *nslifecycle.Client
		actor *int64
	}{{"lifecycle_app for an owner", lc, &owner}, {"lifecycle_worker for an owner", nslifecycle.NewClient(worker), &owner},
		{"lifecycle_worker as the system", nslifecycle.NewClient(worker), nil}} {
		if _, err := who.c.Transition(ctx, project, "transfer_in_progress", who.actor, nil); !errors.Is(nslifecycle.FromDB(err), nslifecycle.ErrPermissionDenied) {
			t.Errorf("%s: transition to transfer_in_progress: %v, want NS005", who.name, err)
		}
		if _, err := who.c.Event(ctx, project, "transfer_start", who.actor, nil); !errors.Is(nslifecycle.FromDB(err), nslifecycle.ErrPermissionDenied) {
			t.Errorf("%s: event transfer_start: %v, want NS005", who.name, err)
		}
	}
	invariants := func() []string {
		rows, err := admin.Query(ctx, `select invariant || ': ' || reason from lifecycle.check_invariants()`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	if bad := invariants(); len(bad) != 0 {
		t.Fatalf("after the refused calls, check_invariants: %v", bad)
	}
	st, err := lc.EffectiveState(ctx, project)
	if err != nil || st.State != "ancestor_inherited" {
		t.Fatalf("the project is %q (%v), want ancestor_inherited", st.State, err)
	}

	// The transfer's own way: request (accepted at once: the owner owns the target), execute.
	if _, err := lc.RequestTransfer(ctx, project, dst, &owner); err != nil {
		t.Fatalf("lifecycle_app: transfer request: %v", err)
	}
	if st, err := lc.EffectiveState(ctx, project); err != nil || st.State != "transfer_in_progress" {
		t.Fatalf("after the request the project is %q (%v), want transfer_in_progress", st.State, err)
	}
	if outcome, err := lc.ExecuteTransfer(ctx, project); err != nil || outcome != "completed" {
		t.Fatalf("lifecycle_app: execute: %q, %v", outcome, err)
	}
	if bad := invariants(); len(bad) != 0 {
		t.Fatalf("after the transfer, check_invariants: %v", bad)
	}
}
