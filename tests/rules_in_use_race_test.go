package tests_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// A state or an event is not removed while a change that names it is in flight: the guards on
// lifecycle.states and lifecycle.events (056, in place of the foreign keys, whose row locks did
// this) wait for the changes in flight, and once such a change commits they refuse the removal
// with 23503. Without the wait the removal would pass unseen by the change (its row is not yet
// committed) and leave a namespace in, or a history row naming, what no longer exists.
func TestAStateOrEventRemovedWhileAChangeIntoItIsInFlightIsRefusedOnceItCommits(t *testing.T) {
	ctx := context.Background()
	// A database of its own: the removals change the rules and hold every write of namespaces off.
	url, pool := dbtest.NewDatabasePool(t)
	org := insertNamespace(t, ctx, pool, nil, "organization", "inflight-"+suffix())
	for _, sql := range []string{
		// stowed, entered by a transition; shelved, by the event stow.
		`insert into lifecycle.states (code, name, description, permanent, read_only, pending_deletion)
		   values ((select max(code) + 1 from lifecycle.states), 'stowed', 'A state the test removes.', false, false, false),
		          ((select max(code) + 2 from lifecycle.states), 'shelved', 'A state the test enters by an event.', false, false, false)`,
		`insert into lifecycle.state_transitions (from_state, to_state, reason, audit_action)
		   values (lifecycle.state_code('ancestor_inherited'), lifecycle.state_code('stowed'), 'a test', 'stowed'),
		          (lifecycle.state_code('ancestor_inherited'), lifecycle.state_code('shelved'), 'a test', 'shelved')`,
		`insert into lifecycle.events (name, target_state, description)
		   values ('stow', lifecycle.state_code('shelved'), 'An event the test removes.')`,
		`insert into lifecycle.event_sources (event, from_state) values ('stow', lifecycle.state_code('ancestor_inherited'))`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range []struct {
		name   string
		change string // made in flight, on a namespace $1
		undo   string // a rule that names it, removed first by the remover
		remove string
	}{
		{"state", `update lifecycle.namespaces set state = lifecycle.state_code('stowed') where id = $1`,
			`delete from lifecycle.state_transitions where to_state = lifecycle.state_code('stowed')`,
			`delete from lifecycle.states where name = 'stowed'`},
		{"event", `select lifecycle.namespace_event($1, 'stow', null)`,
			`delete from lifecycle.event_sources where event = 'stow'`,
			`delete from lifecycle.events where name = 'stow'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ns := insertNamespace(t, ctx, pool, &org, "group", "g-"+c.name)
			changer, err := pool.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer changer.Rollback(ctx)
			if _, err := changer.Exec(ctx, c.change, ns); err != nil {
				t.Fatal(err)
			}

			remover, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer remover.Close(ctx)
			rtx, err := remover.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer rtx.Rollback(ctx)
			if _, err := rtx.Exec(ctx, c.undo); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := rtx.Exec(ctx, c.remove)
				done <- err
			}()
			if err := waitForLockWaiter(ctx, pool, remover.PgConn().PID()); err != nil {
				select {
				case err := <-done:
					t.Fatalf("the removal did not wait for the change in flight (it returned %v)", err)
				default:
					t.Fatal(err)
				}
			}
			if err := changer.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			err = <-done
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "23503" {
				t.Fatalf("the removal after the change committed: %v, want 23503", err)
			}
		})
	}
}
