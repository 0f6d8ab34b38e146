package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// A syncer whose role the server refuses a replication connection says so in one ERROR line with
// what to grant, and exits 3, whether it is the only syncer, would be a standby (another holds
// the slot: it used to wait quietly, healthy, until the takeover failed), or loses the right while
// it runs (it used to retry for ever, one "replication session ended; reconnecting" at a time).
func TestASyncerWithoutTheReplicationRightSaysWhatToGrantAndExits(t *testing.T) {
	e := newEnv(t)
	superURL := e.url
	role := func(u string) string {
		t.Helper()
		cfg, err := pgconn.ParseConfig(u)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.User
	}

	t.Run("alone", func(t *testing.T) {
		w := newEnvAt(t, superURL)
		w.slot = e.slot
		w.url = dbtest.LoginAs(t, superURL, "lifecycle_worker")
		w.launch()
		if code := w.exitCode(60 * time.Second); code != exitNoReplicationRight {
			t.Fatalf("exit %d, want %d", code, exitNoReplicationRight)
		}
		w.saysWhatToGrant(role(w.url))
		var slots int
		if err := w.pool.QueryRow(w.ctx, `select count(*) from pg_replication_slots where slot_name = $1`, w.slot).Scan(&slots); err != nil || slots != 0 {
			t.Fatalf("slots named %s: %d (%v), want none", w.slot, slots, err)
		}
	})

	t.Run("beside an active syncer", func(t *testing.T) {
		e.start() // as the superuser: the active one
		w := newEnvAt(t, superURL)
		w.slot = e.slot
		w.url = dbtest.LoginAs(t, superURL, "lifecycle_worker")
		w.launch()
		if code := w.exitCode(60 * time.Second); code != exitNoReplicationRight {
			t.Fatalf("exit %d, want %d (a standby that could never take over)", code, exitNoReplicationRight)
		}
		w.saysWhatToGrant(role(w.url))
		e.kill()
	})

	t.Run("losing the right", func(t *testing.T) {
		w := newEnvAt(t, superURL)
		w.url = dbtest.LoginAs(t, superURL, "lifecycle_worker")
		name := pgx.Identifier{role(w.url)}.Sanitize()
		w.exec("alter role " + name + " replication")
		w.start()
		w.exec("alter role " + name + " noreplication")
		w.exec(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1 and backend_type = 'walsender'`, role(w.url))
		if code := w.exitCode(60 * time.Second); code != exitNoReplicationRight {
			t.Fatalf("exit %d, want %d", code, exitNoReplicationRight)
		}
		w.saysWhatToGrant(role(w.url))
	})
}

// exitCode waits up to timeout for the syncer to exit and returns its exit status; the test fails
// when it is still running.
func (e *env) exitCode(timeout time.Duration) int {
	e.t.Helper()
	done := make(chan error, 1)
	go func() { done <- e.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			e.t.Fatal(err)
		}
		return 0
	case <-time.After(timeout):
		_ = e.cmd.Process.Kill() // the goroutine above waits for it (a second Wait would hang)
		<-done
		e.t.Fatalf("the syncer still runs %s after its start:\n%s", timeout, tail(e.log.String(), 20))
		return -1
	}
}

// saysWhatToGrant: the syncer's last log line is the ERROR that names the missing right, the role,
// what to grant it on each kind of server, where the docs say more, and the server's refusal: its
// SQLSTATE (42501 at connection) and its message, whatever the server's version words it as
// (PostgreSQL 15: "must be superuser or replication role to start walsender"; 16 and later:
// "permission denied to start WAL sender"); and no ERROR line follows it.
func (e *env) saysWhatToGrant(role string) {
	e.t.Helper()
	var last struct {
		Level, Msg, Role, Grant, Err, Sqlstate string
	}
	lines := strings.Split(strings.TrimSpace(e.log.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		e.t.Fatalf("the last log line is not JSON (%v):\n%s", err, e.log.String())
	}
	q := pgx.Identifier{role}.Sanitize()
	switch {
	case last.Level != "ERROR",
		!strings.Contains(last.Msg, "lacks the replication right"),
		!strings.Contains(last.Msg, "docs/operations.md, Managed PostgreSQL"),
		last.Role != role,
		!strings.Contains(last.Grant, "ALTER ROLE "+q+" WITH REPLICATION"),
		!strings.Contains(last.Grant, "GRANT rds_replication TO "+q),
		!strings.Contains(last.Grant, "cloudsqlsuperuser"),
		last.Sqlstate != "42501",
		last.Err == "":
		e.t.Fatalf("the last log line does not say what to grant %s: %+v\n%s", role, last, tail(e.log.String(), 10))
	}
}
