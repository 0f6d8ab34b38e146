package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

// Behind PgBouncer in transaction mode the sweeper's prepared statements meet those a previous
// run left on the server connection (42P05): the sweeper says it is behind a transaction-mode
// pooler and what to set instead (it used to ask whether the schema was migrated), and exits 2.
// Through a session-mode pool, what the message asks for, every run works.
func TestSweeperBehindATransactionPoolerSaysWhatToSet(t *testing.T) {
	ctx := context.Background()
	u, err := url.Parse(dbtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(u.Path, "/")
	runs := [][]string{{"-dry-run"}, {"-dry-run"}, {"-dry-run", "-now", "2030-01-01T00:00:00Z"}}

	// One server connection: the second run gets the first's, with its statements.
	tx := testtools.StartPgBouncer(t, dbtest.ServerURL(t), "transaction", map[string]string{"default_pool_size": "1"})
	var failed int
	for i, args := range runs {
		code, _, out := sweepOn(t, ctx, tx.URL(db, ""), args...)
		t.Logf("PgBouncer %s, transaction mode, run %d %v: exit %d\n%s", tx.Version, i+1, args, code, lastLines(out, 1))
		if code == 0 {
			continue
		}
		failed++
		if code != 2 || !strings.Contains(out, "transaction-mode pooler") || !strings.Contains(out, "pool_mode=session") ||
			strings.Contains(out, "is the database migrated") {
			t.Errorf("run %d %v: exit %d, want 2 with an error naming the transaction-mode pooler and pool_mode=session, "+
				"and not the schema:\n%s", i+1, args, code, out)
		}
	}
	if failed < len(runs)-1 {
		t.Errorf("%d of %d runs failed through transaction pooling; every run after the first should", failed, len(runs))
	}

	session := testtools.StartPgBouncer(t, dbtest.ServerURL(t), "session", map[string]string{"default_pool_size": "1"})
	for i, args := range runs {
		code, _, out := sweepOn(t, ctx, session.URL(db, ""), args...)
		t.Logf("PgBouncer %s, session mode, run %d %v: exit %d", session.Version, i+1, args, code)
		if code != 0 {
			t.Errorf("session mode, run %d %v: exit %d, want 0:\n%s", i+1, args, code, out)
		}
	}
}
