package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle/internal/db"
)

var deadLetterReasons = []string{"too_large", "unreadable", "invalid_fact", "record_failed"}

// login returns a pool on the test's database as a new LOGIN role that is a member of group (and
// nothing else), dropped when the test ends.
func (e *env) login(group string) *pgxpool.Pool {
	e.t.Helper()
	role := "nslt_login_" + suffix()
	e.exec(fmt.Sprintf(`create role %s login in role %s`, role, group))
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

func deadLettersMetric(reason string) string {
	return `lifecycle_syncer_dead_letters_total{reason="` + reason + `"}`
}

// emit emits a transactional message with the fact prefix, of any bytes, in its own transaction.
func emit(t *testing.T, pool *pgxpool.Pool, payload []byte) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), `select pg_logical_emit_message(true, 'nslifecycle.fact', $1::bytea)`, payload); err != nil {
		t.Fatalf("emit %q: %v", payload[:min(len(payload), 80)], err)
	}
}

// deadLetter is a row of lifecycle.fact_dead_letters.
type deadLetter struct {
	lsn      string
	position int
	reason   string
	detail   string
	payload  []byte
	bytes    int64
}

func (e *env) deadLetters() []deadLetter {
	e.t.Helper()
	rows, err := e.pool.Query(e.ctx, `select source_lsn::text, source_position, reason, detail, payload, payload_bytes
		from lifecycle.fact_dead_letters order by source_lsn, source_position`)
	if err != nil {
		e.t.Fatal(err)
	}
	letters, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (d deadLetter, err error) {
		err = r.Scan(&d.lsn, &d.position, &d.reason, &d.detail, &d.payload, &d.bytes)
		return d, err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return letters
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

// Any role may call pg_logical_emit_message. As the application's role, every payload of issue 14
// that stalled the syncer for ever is emitted with the fact prefix, beside real changes (one in the
// middle of a transaction of real changes), and a fact of the schema's own that is over the bound:
// each becomes exactly one dead letter with its reason and its bytes (cut to 8192) at its source
// position, /metrics counts them by reason (every reason shown at 0 from the start), every real
// change before, among and after them is audited once, and the session never restarts.
func TestPoisonedFactMessagesBecomeDeadLettersAndTheStreamGoesOn(t *testing.T) {
	e := newEnv(t, "-fact-max-bytes", "65536")
	app := e.login("lifecycle_app")
	e.start()
	for _, r := range deadLetterReasons {
		if v, found := e.series(deadLettersMetric(r)); !found || v != 0 {
			t.Fatalf("before any dead letter: %s = %v (shown: %v), want 0", deadLettersMetric(r), v, found)
		}
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
	before := appInsert(appQ, &org, "before")

	big := []byte(`{"action": "archived", "details": {"blob": "` + strings.Repeat("x", 70000) + `"}}`)
	poisons := []struct {
		name    string
		payload []byte
		reason  string
	}{
		{"a \\u0000 escape", []byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": [%d], "details": {"note": "\u0000"}}`, org, org)), "unreadable"},
		{"a lone surrogate", []byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "details": {"note": "\ud800"}}`, org)), "unreadable"},
		{"a number numeric cannot hold", []byte(`{"action": "archived", "details": {"n": 1e1000000}}`), "unreadable"},
		{"traversal_ids null", []byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": null}`, org)), "invalid_fact"},
		{"invalid UTF-8", []byte("{\"action\": \"archived\xff\xfe\"}"), "unreadable"},
		{"not JSON, with a NUL byte", []byte("not json\x00at all"), "unreadable"},
		{"over -fact-max-bytes", big, "too_large"},
	}
	for _, p := range poisons {
		emit(t, app, p.payload)
	}
	// One poisoned message between two real changes of one source transaction.
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
	// A forged fact of the right shape is still recorded as forged_fact, not as a dead letter.
	emit(t, app, []byte(fmt.Sprintf(`{"action": "archived", "namespace_id": %d, "traversal_ids": [%d]}`, org, org)))
	// A fact of the schema's own, MAC and all, over the bound.
	e.exec(`select lifecycle.fact_emit('archived', $1, array[$1]::bigint[], 'poison', null, jsonb_build_object('blob', repeat('y', 70000)))`, org)
	after := appInsert(appQ, &org, "after")
	if _, err := e.lc.Event(e.ctx, after, "archive", nil, nil); err != nil {
		t.Fatal(err)
	}
	e.caughtUp()

	e.auditedOnce(org, before, first, second, after)
	var archived, forged int
	if err := e.pool.QueryRow(e.ctx, `select count(*) filter (where action = 'archived' and namespace_id = $1),
		count(*) filter (where action = 'forged_fact') from lifecycle.audit_events`, after).Scan(&archived, &forged); err != nil ||
		archived != 1 || forged != 1 {
		t.Fatalf("audit rows: %d archived, %d forged_fact (%v): want 1 and 1", archived, forged, err)
	}

	letters := e.deadLetters()
	want := len(poisons) + 2 // the one between real changes, the schema's own over the bound
	if len(letters) != want {
		t.Fatalf("%d dead letters, want %d: %+v", len(letters), want, letters)
	}
	counts := map[string]int{}
	for i, p := range poisons {
		d := letters[i]
		kept := p.payload[:min(len(p.payload), 8192)]
		if d.reason != p.reason || !bytes.Equal(d.payload, kept) || d.bytes != int64(len(p.payload)) || d.position != 0 || d.detail == "" {
			t.Errorf("%s: dead letter %s at %d, %d of %d bytes kept, detail %q: want %s, its bytes (%d kept), position 0, a detail",
				p.name, d.reason, d.position, len(d.payload), d.bytes, d.detail, p.reason, len(kept))
		}
		counts[p.reason]++
	}
	between, own := letters[len(poisons)], letters[len(poisons)+1]
	var firstLSN, firstPos, secondPos string
	if err := e.pool.QueryRow(e.ctx, `select a.source_lsn::text, a.source_position::text, b.source_position::text
		from lifecycle.audit_events a, lifecycle.audit_events b
		where a.namespace_id = $1 and a.action = 'namespace_created' and b.namespace_id = $2 and b.action = 'namespace_created'`,
		first, second).Scan(&firstLSN, &firstPos, &secondPos); err != nil {
		t.Fatal(err)
	}
	if between.reason != "unreadable" || between.lsn != firstLSN || between.position != 1 || firstPos != "0" || secondPos != "2" {
		t.Errorf("the transaction of real changes: dead letter %s at %s/%d, its facts at %s/%s and %s: want unreadable at position 1 between 0 and 2",
			between.reason, between.lsn, between.position, firstLSN, firstPos, secondPos)
	}
	if own.reason != "too_large" || own.bytes <= 65536 || len(own.payload) != 8192 || !bytes.Contains(own.payload, []byte(`"action": "archived"`)) {
		t.Errorf("the schema's own fact over the bound: %s, %d of %d bytes kept: want too_large, 8192 kept", own.reason, len(own.payload), own.bytes)
	}
	counts["unreadable"]++
	counts["too_large"]++
	for _, r := range deadLetterReasons {
		if v, _ := e.series(deadLettersMetric(r)); v != float64(counts[r]) {
			t.Errorf("%s = %v, want %d", deadLettersMetric(r), v, counts[r])
		}
	}
	if n := e.metric("lifecycle_syncer_reconnects_total"); n != 0 || strings.Contains(e.log.String(), "replication session ended") {
		t.Fatalf("the replication session restarted %v times: want it streaming throughout", n)
	}
}

// When recording a batch fails all the same, for a reason of the fact's own (here a trigger
// refuses one action with a check violation), the batch is recorded again fact by fact: the fact
// that fails becomes a dead letter (record_failed, with the error), every other fact of its
// transaction and its batch is audited, and the session goes on. A transient failure (a
// serialization failure) is not a dead letter: the batch, with a dead letter of its own, is retried
// until it records, and the dead letter is recorded once.
func TestARecordingFailureOfOneFactBecomesADeadLetterATransientOneIsRetried(t *testing.T) {
	e := newEnv(t, "-batch-wait", "300ms")
	e.exec(`create table public.nslt_fail (action text primary key, code text not null)`)
	e.exec(`create function public.nslt_fail() returns trigger language plpgsql as $$
		declare c text;
		begin
		  select f.code into c from public.nslt_fail f where f.action = new.action;
		  if found then
		    raise exception using errcode = c, message = 'nslt: refused ' || new.action;
		  end if;
		  return new;
		end $$`)
	e.exec(`create trigger nslt_fail before insert on lifecycle.audit_events for each row execute function public.nslt_fail()`)
	e.exec(`insert into public.nslt_fail values ('explode', '23514'), ('flaky', '40001')`)
	e.start()
	org := e.insert(nil, "organization", "refusals")
	e.caughtUp()

	// Three source transactions received together: one batch.
	a := e.insert(&org, "project", "a")
	tx, err := e.pool.Begin(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(e.ctx, `select lifecycle.fact_emit('explode', $1, array[$1]::bigint[], 'refusals', null, '{}')`, org); err != nil {
		t.Fatal(err)
	}
	b, err := db.New(tx).NamespaceInsert(e.ctx, db.NamespaceInsertParams{ParentID: &org, Type: "project", Path: "b", Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(e.ctx); err != nil {
		t.Fatal(err)
	}
	c := e.insert(&org, "project", "c")
	e.caughtUp()
	e.auditedOnce(a, b.ID, c)
	letters := e.deadLetters()
	if len(letters) != 1 || letters[0].reason != "record_failed" || !strings.Contains(letters[0].detail, "nslt: refused explode (SQLSTATE 23514)") ||
		!bytes.Contains(letters[0].payload, []byte(`"action": "explode"`)) || letters[0].position != 0 {
		t.Fatalf("dead letters %+v: want one, record_failed, with the error and the fact", letters)
	}
	if v, _ := e.series(deadLettersMetric("record_failed")); v != 1 {
		t.Fatalf("%s = %v, want 1", deadLettersMetric("record_failed"), v)
	}
	if !strings.Contains(e.log.String(), "recording it again fact by fact") || e.metric("lifecycle_syncer_reconnects_total") != 0 {
		t.Fatalf("want the batch recorded again fact by fact, without a reconnect:\n%s", tail(e.log.String(), 10))
	}

	// A transient failure: the batch is retried, not dead-lettered.
	tx, err = e.pool.Begin(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(e.ctx, `select pg_logical_emit_message(true, 'nslifecycle.fact', 'not a fact'::bytea)`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(e.ctx, `select lifecycle.fact_emit('flaky', $1, array[$1]::bigint[], 'refusals', null, '{}')`, org); err != nil {
		t.Fatal(err)
	}
	d, err := db.New(tx).NamespaceInsert(e.ctx, db.NamespaceInsertParams{ParentID: &org, Type: "project", Path: "d", Name: "d"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.eventually("the batch is retried twice", 60*time.Second, func() bool { return e.metric("lifecycle_syncer_reconnects_total") >= 2 })
	var flaky, dAudited int
	if err := e.pool.QueryRow(e.ctx, `select count(*) filter (where action = 'flaky'), count(*) filter (where namespace_id = $1)
		from lifecycle.audit_events`, d.ID).Scan(&flaky, &dAudited); err != nil || flaky != 0 || dAudited != 0 || len(e.deadLetters()) != 1 {
		t.Fatalf("while failing: %d flaky and %d rows of d audited, %d dead letters (%v): want none recorded", flaky, dAudited, len(e.deadLetters()), err)
	}
	e.exec(`delete from public.nslt_fail where action = 'flaky'`)
	e.caughtUp()
	e.auditedOnce(d.ID)
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where action = 'flaky'`).Scan(&flaky); err != nil || flaky != 1 {
		t.Fatalf("flaky audit rows: %d (%v), want 1", flaky, err)
	}
	letters = e.deadLetters()
	if len(letters) != 2 || letters[1].reason != "unreadable" || string(letters[1].payload) != "not a fact" {
		t.Fatalf("dead letters %+v: want the earlier one and the retried batch's, once", letters)
	}
	for r, want := range map[string]float64{"record_failed": 1, "unreadable": 1} {
		if v, _ := e.series(deadLettersMetric(r)); v != want {
			t.Fatalf("%s = %v, want %v", deadLettersMetric(r), v, want)
		}
	}
}

// A batch with dead letters is SIGKILLed midway (held at its second dead letter by a lock, the
// first written in its open transaction): nothing of it shows; rerun, each dead letter is recorded
// once and the real change between them is audited once.
func TestABatchKilledMidwayRecordsItsDeadLettersOnce(t *testing.T) {
	e := newEnv(t, "-batch-max", "500", "-batch-wait", "300ms")
	e.start()
	org := e.insert(nil, "organization", "killed")
	e.caughtUp()
	e.kill()

	emit(t, e.pool, []byte("first\x00poison"))
	x := e.insert(&org, "project", "x")
	emit(t, e.pool, []byte(`{"action": "archived", "traversal_ids": null}`))

	const lockKey = 434343
	e.exec(`create function public.nslt_hold() returns trigger language plpgsql as $$
		begin perform pg_advisory_xact_lock_shared(` + strconv.Itoa(lockKey) + `); return new; end $$`)
	e.exec(`create trigger nslt_hold before insert on lifecycle.fact_dead_letters for each row
		when (new.reason = 'invalid_fact') execute function public.nslt_hold()`)
	holder, err := e.pool.Acquire(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	if _, err := holder.Exec(e.ctx, `select pg_advisory_lock($1)`, lockKey); err != nil {
		t.Fatal(err)
	}
	e.start()
	var blocked int32
	e.eventually("the syncer's batch waits at the second dead letter", 60*time.Second, func() bool {
		return e.pool.QueryRow(e.ctx, `select pid from pg_locks where locktype = 'advisory' and objid = $1 and not granted`,
			lockKey).Scan(&blocked) == nil
	})
	var wrote bool
	if err := e.pool.QueryRow(e.ctx, `select backend_xid is not null from pg_stat_activity where pid = $1`, blocked).Scan(&wrote); err != nil || !wrote {
		t.Fatalf("the blocked transaction has written nothing yet (%v): the first dead letter is not in it", err)
	}
	if n := len(e.deadLetters()); n != 0 {
		t.Fatalf("%d dead letters show before the batch commits", n)
	}
	e.kill()
	if _, err := holder.Exec(e.ctx, `select pg_advisory_unlock($1)`, lockKey); err != nil {
		t.Fatal(err)
	}
	e.eventually("the killed syncer's backend ends", 60*time.Second, func() bool {
		var n int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from pg_stat_activity where pid = $1`, blocked).Scan(&n)
		return n == 0
	})
	if n := len(e.deadLetters()); n != 0 {
		t.Fatalf("%d dead letters show after the kill, want none", n)
	}
	e.exec(`drop trigger nslt_hold on lifecycle.fact_dead_letters`)
	e.start()
	e.caughtUp()
	letters := e.deadLetters()
	if len(letters) != 2 || letters[0].reason != "unreadable" || letters[1].reason != "invalid_fact" {
		t.Fatalf("dead letters %+v: want one unreadable and one invalid_fact", letters)
	}
	e.auditedOnce(x)
}
