package tests_test

import (
	"context"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// Reads scale out (docs/scaling.md): every read function (effective state, available transitions,
// resolve) and the effective-state view answer on a hot standby exactly as on the primary, for the
// application role; a change there is refused by PostgreSQL (25006), not half made. make test
// starts a streaming standby of the private cluster and names it in STANDBY_URL.
func TestReadsWorkOnAHotStandby(t *testing.T) {
	standby := os.Getenv("STANDBY_URL")
	if standby == "" {
		t.Skip("STANDBY_URL names no hot standby (make test starts one beside its private cluster; a server named by DATABASE_URL gets none)")
	}
	ctx := context.Background()
	primaryURL := dbtest.NewDatabase(t)
	primary, err := pgxpool.New(ctx, primaryURL)
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Close()
	// A tree with states, a redirect, a member, and the view refreshed.
	for _, q := range []string{
		`insert into lifecycle.namespaces (id, parent_id, type, path, name) values (900, null, 'organization', 'acme', 'Acme'),
		   (901, 900, 'group', 'platform', 'P'), (902, 901, 'project', 'api', 'A'), (903, 901, 'project', 'web', 'W')`,
		`insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900, 42, 50), (901, 7, 30)`,
		`select * from lifecycle.namespace_rename(903, 'site', 42)`,
		`select * from lifecycle.namespace_event(901, 'archive', 42)`,
		`select lifecycle.effective_states_refresh()`,
	} {
		if _, err := primary.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	appURL := dbtest.LoginAs(t, primaryURL, "lifecycle_app")

	// The standby's copy of the same database, as the same application login.
	su, err := url.Parse(standby)
	if err != nil {
		t.Fatal(err)
	}
	au, err := url.Parse(appURL)
	if err != nil {
		t.Fatal(err)
	}
	su.Path, su.User = au.Path, au.User
	var lsn string
	if err := primary.QueryRow(ctx, `select pg_current_wal_lsn()::text`).Scan(&lsn); err != nil {
		t.Fatal(err)
	}
	var replica *pgx.Conn
	deadline := time.Now().Add(time.Minute)
	for {
		replica, err = pgx.Connect(ctx, su.String())
		if err == nil {
			var caughtUp, inRecovery bool
			err = replica.QueryRow(ctx, `select pg_last_wal_replay_lsn() >= $1::pg_lsn, pg_is_in_recovery()`, lsn).Scan(&caughtUp, &inRecovery)
			if err == nil && !inRecovery {
				t.Fatalf("%s is not a standby", su.Redacted())
			}
			if err == nil && caughtUp {
				break
			}
			replica.Close(ctx)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby did not replay %s within a minute: %v", lsn, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer replica.Close(ctx)
	app, err := pgx.Connect(ctx, appURL)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close(ctx)

	reads := []string{
		`select row(e.*)::text from lifecycle.namespace_effective_state(902) e`,
		`select string_agg(row(a.*)::text, ';' order by a.to_state) from lifecycle.namespace_available_transitions(902, 7) a`,
		`select row(r.*)::text from lifecycle.namespace_resolve('ACME/platform/web') r`,
		`select string_agg(row(v.*)::text, ';' order by v.namespace_id) from lifecycle.effective_states v where v.namespace_id between 900 and 903`,
	}
	for _, q := range reads {
		var onPrimary, onStandby string
		if err := app.QueryRow(ctx, q).Scan(&onPrimary); err != nil {
			t.Fatalf("primary: %s: %v", q, err)
		}
		if err := replica.QueryRow(ctx, q).Scan(&onStandby); err != nil {
			t.Fatalf("standby: %s: %v", q, err)
		}
		if onPrimary == "" || onPrimary != onStandby {
			t.Fatalf("%s:\nprimary %s\nstandby %s", q, onPrimary, onStandby)
		}
	}
	// The answers say what the tree says (not empty strings on both sides).
	var es string
	if err := replica.QueryRow(ctx, reads[0]).Scan(&es); err != nil || !strings.Contains(es, "archived,901") {
		t.Fatalf("effective state on the standby: %q (%v), want archived from 901", es, err)
	}
	_, err = replica.Exec(ctx, `select * from lifecycle.namespace_event(902, 'schedule_deletion', 42)`)
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Code != "25006" {
		t.Fatalf("a change on the standby: %v, want 25006 (read-only transaction)", err)
	}
}
