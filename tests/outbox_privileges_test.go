package tests_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// The outbox decides what is audited, notified and delivered, so only the schema's own functions
// write it and only the syncer's role records it. A login with no grants, and one of
// lifecycle_app with every lifecycle.* setting it could use set to hostile values, can neither
// read nor write the outbox or the pending effective-state work, nor call the functions that
// record, drain, adopt or apply facts: each answers 42501, and nothing is written.
func TestNoLoginOutsideTheWorkerTouchesTheOutbox(t *testing.T) {
	ctx := context.Background()
	url, pool := dbtest.NewDatabasePool(t)
	if _, err := pool.Exec(ctx, `insert into lifecycle.namespaces (type, path, name) values ('organization', 'outbox', 'outbox')`); err != nil {
		t.Fatal(err)
	}
	var facts int
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.facts`).Scan(&facts); err != nil || facts == 0 {
		t.Fatalf("the creation left %d facts in the outbox (%v), want some to attack", facts, err)
	}
	attempts := []string{
		`select count(*) from lifecycle.facts`,
		`delete from lifecycle.facts`,
		`update lifecycle.facts set applied = true`,
		`insert into lifecycle.facts (action) values ('archived')`,
		`select count(*) from lifecycle.effective_states_pending`,
		`insert into lifecycle.effective_states_pending (audit_event_id) values (null)`,
		`select count(*) from lifecycle.facts_record(array[1::bigint])`,
		`select count(*) from lifecycle.facts_record_pending(100)`,
		`select lifecycle.fact_message_adopt('{"action": "archived"}', now())`,
		`select * from lifecycle.effective_states_apply()`,
		`select lifecycle.fact_emit('archived', 1, '{1}', 'outbox', null, '{}')`,
	}
	for _, who := range []struct{ name, group, settings string }{
		{"a login with no grants", "", ""},
		{"lifecycle_app with hostile settings", "lifecycle_app",
			`select set_config('lifecycle.importing', 'on', false), set_config('lifecycle.change', '{"source": "syncer", "operation": "transfer"}', false),
			        set_config('lifecycle.actor_id', '1', false)`},
	} {
		conn, err := pgx.Connect(ctx, dbtest.LoginAs(t, url, who.group))
		if err != nil {
			t.Fatal(err)
		}
		if who.settings != "" {
			if _, err := conn.Exec(ctx, who.settings); err != nil {
				t.Fatal(err)
			}
		}
		for _, q := range attempts {
			_, err := conn.Exec(ctx, q)
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
				t.Errorf("%s: %s: %v, want 42501 (insufficient privilege)", who.name, q, err)
			}
		}
		conn.Close(ctx)
	}
	var after, pending, audited int
	if err := pool.QueryRow(ctx, `select (select count(*) from lifecycle.facts where not applied),
		(select count(*) from lifecycle.effective_states_pending where audit_event_id is not null),
		(select count(*) from lifecycle.audit_events)`).Scan(&after, &pending, &audited); err != nil {
		t.Fatal(err)
	}
	if after != facts || pending != 0 || audited != 0 {
		t.Fatalf("after the attempts: %d facts unapplied (was %d), %d pending, %d audit rows; want all unchanged", after, facts, pending, audited)
	}
}
