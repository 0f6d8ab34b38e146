package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/db"
)

// login returns a pool on the test's database as a new LOGIN role that is a member of group (and
// nothing else; no group: a login with no grants), dropped when the test ends.
func (e *env) login(group string) *pgxpool.Pool {
	e.t.Helper()
	role := "nslt_login_" + suffix()
	if group == "" {
		e.exec(fmt.Sprintf(`create role %s login`, role))
	} else {
		e.exec(fmt.Sprintf(`create role %s login in role %s`, role, group))
	}
	u, err := url.Parse(e.url)
	if err != nil {
		e.t.Fatal(err)
	}
	u.User = url.User(role)
	pool, err := pgxpool.New(e.ctx, u.String())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		pool.Close()
		if _, err := e.pool.Exec(context.Background(), "drop role if exists "+role); err != nil {
			e.t.Logf("drop role %s: %v", role, err)
		}
	})
	return pool
}

// series reads one series of /metrics, labels included in name (found false when absent).
func (e *env) series(name string) (value float64, found bool) {
	e.t.Helper()
	resp, err := http.Get("http://" + e.addr + "/metrics")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				e.t.Fatalf("%s: %v", line, err)
			}
			return f, true
		}
	}
	return 0, false
}

// emit emits a transactional message with the fact prefix, of any bytes, in its own transaction.
func emit(t *testing.T, pool *pgxpool.Pool, payload []byte) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), `select pg_logical_emit_message(true, 'nslifecycle.fact', $1::bytea)`, payload); err != nil {
		t.Fatalf("emit %q: %v", payload[:min(len(payload), 80)], err)
	}
}

// auditedOnce fails unless each namespace has exactly one namespace_created audit row.
func (e *env) auditedOnce(namespaces ...int64) {
	e.t.Helper()
	for _, ns := range namespaces {
		var n int
		if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where namespace_id = $1 and action = 'namespace_created'`,
			ns).Scan(&n); err != nil || n != 1 {
			e.t.Fatalf("namespace %d: %d namespace_created audit rows (%v), want 1", ns, n, err)
		}
	}
}

// Facts are rows only the schema writes; any role may still call pg_logical_emit_message with
// the prefix facts had before migration 035. As the application's role, every payload of issue 14
// that once stalled the syncer, a fact of the right shape without the schema's MAC, and one in the
// middle of a transaction of real changes: none is audited, notifies anyone or is written
// anywhere; /metrics counts them (from 0); every real change before, among and after them is
// audited once, at its position in its transaction; the session never restarts.
func TestAMessageWithTheFactPrefixIsNoFact(t *testing.T) {
	e := newEnv(t, "-fact-max-bytes", "65536")
	app := e.login("lifecycle_app")
	e.start()
	const ignored = "lifecycle_syncer_messages_ignored_total"
	if v, found := e.series(ignored); !found || v != 0 {
		t.Fatalf("before any message: %s = %v (shown: %v), want 0", ignored, v, found)
	}
	appQ := db.New(app)
	appInsert := func(q *db.Queries, parent *int64, path string) int64 {
		t.Helper()
		ns, err := q.NamespaceInsert(e.ctx, db.NamespaceInsertParams{ParentID: parent, Type: "project", Path: path, Name: path})
		if err != nil {
			t.Fatal(err)
		}
		return ns.ID
	}
	org := e.insert(nil, "organization", "poison")
	e.member(org, 21, 50)
	before := appInsert(appQ, &org, "before")
	e.caughtUp()
	var audited, notified int
	if err := e.pool.QueryRow(e.ctx, `select (select count(*) from lifecycle.audit_events), (select count(*) from lifecycle.notifications)`).
		Scan(&audited, &notified); err != nil {
		t.Fatal(err)
	}

	poisons := [][]byte{
		[]byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": [%d], "details": {"note": "\u0000"}}`, org, org)),
		[]byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "details": {"note": "\ud800"}}`, org)),
		[]byte(`{"action": "archived", "details": {"n": 1e1000000}}`),
		[]byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": null}`, org)),
		[]byte("{\"action\": \"archived\xff\xfe\"}"),
		[]byte("not json\x00at all"),
		[]byte(`{"action": "archived", "details": {"blob": "` + strings.Repeat("x", 70000) + `"}}`),
		// The right shape, an owner on its path, a MAC that is not the schema's.
		[]byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": [%d], "actor_id": 21, "mac": "00"}`, org, org)),
	}
	for _, p := range poisons {
		emit(t, app, p)
	}
	tx, err := app.Begin(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := appInsert(db.New(tx), &org, "first")
	if _, err := tx.Exec(e.ctx, `select pg_logical_emit_message(true, 'nslifecycle.fact', $1::bytea)`, []byte("in\x00between")); err != nil {
		t.Fatal(err)
	}
	second := appInsert(db.New(tx), &org, "second")
	if err := tx.Commit(e.ctx); err != nil {
		t.Fatal(err)
	}
	after := appInsert(appQ, &org, "after")
	if _, err := e.lc.Event(e.ctx, after, "archive", nil, nil); err != nil {
		t.Fatal(err)
	}
	e.caughtUp()

	e.auditedOnce(org, before, first, second, after)
	var audits, notes, archived int
	var firstPos, secondPos int
	if err := e.pool.QueryRow(e.ctx, `select (select count(*) from lifecycle.audit_events), (select count(*) from lifecycle.notifications),
		(select count(*) from lifecycle.audit_events where action = 'archived'),
		(select source_position from lifecycle.audit_events where namespace_id = $1 and action = 'namespace_created'),
		(select source_position from lifecycle.audit_events where namespace_id = $2 and action = 'namespace_created')`, first, second).
		Scan(&audits, &notes, &archived, &firstPos, &secondPos); err != nil {
		t.Fatal(err)
	}
	// Five real facts after the first count: three creations and an archive, each notifying the
	// owner, and caughtUp's marker (a root: no owner to notify).
	if audits != audited+5 || archived != 1 || notes != notified+4 {
		t.Fatalf("audit rows %d → %d (archived %d), notifications %d → %d: want 5 more, 1 archived, 4 more", audited, audits, archived, notified, notes)
	}
	if firstPos != 0 || secondPos != 1 {
		t.Errorf("the transaction of real changes: its facts at positions %d and %d, want 0 and 1", firstPos, secondPos)
	}
	if v, _ := e.series(ignored); v != float64(len(poisons)+1) {
		t.Errorf("%s = %v, want %d", ignored, v, len(poisons)+1)
	}
	if n := e.metric("lifecycle_syncer_reconnects_total"); n != 0 || strings.Contains(e.log.String(), "replication session ended") {
		t.Fatalf("the replication session restarted %v times: want it streaming throughout", n)
	}
}

// A fact committed as a logical message before the outbox (signed by the schema's key, as
// fact_emit signed them then) and still in the slot at the upgrade is adopted into the outbox and
// audited once, with its owner notified; the same message replayed after a restart is not
// audited again. The upgrade made after it is lifecycle.fact_message_horizon moved past it.
func TestAFactOfBeforeTheOutboxIsAdoptedOnce(t *testing.T) {
	e := newEnv(t)
	org := e.insert(nil, "organization", "legacy")
	e.member(org, 21, 50)
	e.start()
	e.caughtUp()
	e.exec(`select pg_logical_emit_message(true, 'nslifecycle.fact', (f || jsonb_build_object('mac', lifecycle.fact_mac(f)))::text)
		from (select jsonb_build_object('action', 'archived', 'namespace_id', $1::bigint, 'traversal_ids', jsonb_build_array($1::bigint),
		      'full_path', 'legacy', 'actor_id', 21, 'details', '{}'::jsonb, 'occurred_at', now()) f) s`, org)
	e.exec(`update lifecycle.fact_message_horizon set lsn = pg_current_wal_lsn()`)
	// The syncer reads the horizon when it starts streaming, as after an upgrade.
	e.kill()
	e.start()
	e.caughtUp()
	e.kill()
	e.start()
	e.caughtUp()
	var archived, notified int
	if err := e.pool.QueryRow(e.ctx, `select count(*), (select count(*) from lifecycle.notifications n
		join lifecycle.audit_events a on a.id = n.audit_event_id where a.action = 'archived')
		from lifecycle.audit_events where action = 'archived' and namespace_id = $1`, org).Scan(&archived, &notified); err != nil {
		t.Fatal(err)
	}
	if archived != 1 || notified != 1 {
		t.Fatalf("the adopted fact: %d audit rows, %d notifications; want 1 and 1", archived, notified)
	}
}
