package tests_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// The legacy backfill writes its rows set-based with lifecycle.importing set and checks them
// itself; the gate lets them pass before it asks for READ COMMITTED (which only its own guards'
// reads need), so a worker that runs the backfill in a REPEATABLE READ transaction backfills as in
// any other. (When the gate's UPDATE trigger stopped skipping those rows by a WHEN clause, it first
// asked for the isolation level before letting them pass, and refused them.) A pgTAP file cannot
// show this: its setup runs in the one transaction, and the gate refuses a creation in REPEATABLE
// READ.
func TestTheLegacyBackfillRunsInARepeatableReadTransaction(t *testing.T) {
	ctx := context.Background()
	url := dbtest.NewDatabase(t)
	admin, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var project int64
	if err := admin.QueryRow(ctx, `
		with o as (insert into lifecycle.namespaces (parent_id, type, path, name)
		           values (null, 'organization', 'backfill-rr', 'backfill-rr') returning id)
		select id from o`).Scan(&project); err != nil {
		t.Fatal(err)
	}
	if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'group', 'g', 'g') returning id`, project).Scan(&project); err != nil {
		t.Fatal(err)
	}
	if err := admin.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', 'p', 'p') returning id`, project).Scan(&project); err != nil {
		t.Fatal(err)
	}
	// Legacy data from before the bridge: the project archived there.
	if _, err := admin.Exec(ctx, `
		create schema legacy;
		create table legacy.projects (id bigint primary key, project_namespace_id bigint not null unique,
		  archived boolean not null default false)`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, `insert into legacy.projects values ($1, $1, true)`, project); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, `select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 1001)`); err != nil {
		t.Fatal(err)
	}

	worker, err := pgx.Connect(ctx, dbtest.LoginAs(t, url, "lifecycle_worker"))
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close(ctx)
	tx, err := worker.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	var backfilled, refused int64
	if err := tx.QueryRow(ctx, `select backfilled, refused from lifecycle.legacy_bridge_backfill()`).Scan(&backfilled, &refused); err != nil {
		t.Fatalf("the backfill in REPEATABLE READ: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if backfilled != 1 || refused != 0 {
		t.Fatalf("backfilled %d, refused %d; want 1 and 0", backfilled, refused)
	}
	var state string
	if err := admin.QueryRow(ctx, `select lifecycle.state_name(state) from lifecycle.namespaces where id = $1`, project).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != "archived" {
		t.Fatalf("the project is %s after the backfill; want archived", state)
	}
}
