package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
	"github.com/nslifecycle/nslifecycle/internal/syncer"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "syncer-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "syncer")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build the syncer: %v\n%s", err, out)
		os.Exit(2)
	}
	code := dbtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is a test's own database, with the syncer run against it as a subprocess.
type env struct {
	t    *testing.T
	ctx  context.Context
	url  string
	slot string
	pool *pgxpool.Pool
	lc   *nslifecycle.Client
	q    *db.Queries
	args []string
	cmd  *exec.Cmd
	log  *syncBuffer
	addr string
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newEnv(t *testing.T, args ...string) *env {
	return newEnvAt(t, dbtest.NewDatabase(t), args...)
}

// newEnvAt is newEnv on a database of the test's own choosing (a cluster it started).
func newEnvAt(t *testing.T, url string, args ...string) *env {
	e := &env{t: t, ctx: context.Background(), url: url, args: args, log: &syncBuffer{}}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	e.slot = "nslt_" + hex.EncodeToString(b)
	pool, err := pgxpool.New(e.ctx, e.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	e.pool, e.lc, e.q = pool, nslifecycle.NewClient(pool), db.New(pool)
	t.Cleanup(func() {
		if e.cmd != nil && e.cmd.ProcessState == nil {
			_ = e.cmd.Process.Kill()
			_ = e.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("syncer log (%d bytes, last lines):\n%s", len(e.log.String()), tail(e.log.String(), 40))
		}
	})
	return e
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs the syncer and waits until it is streaming and has drained the outbox.
func (e *env) start() {
	e.t.Helper()
	e.launch()
	// Creating a slot waits for every transaction running on the server to end: give it time.
	e.eventually("the syncer streams", 3*time.Minute, func() bool {
		resp, err := http.Get("http://" + e.addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}

// launch runs the syncer.
func (e *env) launch() {
	e.t.Helper()
	e.addr = freeAddr(e.t)
	args := append([]string{"-slot", e.slot, "-listen", e.addr, "-log-format", "json", "-standby-interval", "1s",
		"-refresh-debounce", "100ms", "-refresh-min-interval", "100ms", "-delivery-poll", "100ms"}, e.args...)
	e.cmd = exec.Command(binary, args...)
	e.cmd.Env = append(os.Environ(), "DATABASE_URL="+e.url)
	e.cmd.Stderr = e.log
	dieWithParent(e.cmd)
	if err := e.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) kill() {
	e.t.Helper()
	_ = e.cmd.Process.Signal(syscall.SIGKILL)
	_ = e.cmd.Wait()
}

func (e *env) eventually(what string, timeout time.Duration, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// caughtUp: the syncer has recorded everything committed so far (a marker fact, then its audit row).
func (e *env) caughtUp() {
	e.t.Helper()
	marker := e.insert(nil, "organization", "marker-"+suffix())
	e.eventually("the syncer catches up", 60*time.Second, func() bool {
		var n int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where namespace_id = $1 and action = 'namespace_created'`,
			marker).Scan(&n)
		return n == 1
	})
}

func (e *env) insert(parent *int64, typ, path string) int64 {
	e.t.Helper()
	ns, err := e.q.NamespaceInsert(e.ctx, db.NamespaceInsertParams{ParentID: parent, Type: typ, Path: path, Name: path})
	if err != nil {
		e.t.Fatal(err)
	}
	return ns.ID
}

func (e *env) member(ns, user int64, level int16) {
	e.t.Helper()
	if _, err := e.q.MemberUpsert(e.ctx, db.MemberUpsertParams{NamespaceID: ns, UserID: user, AccessLevel: level}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.pool.Exec(e.ctx, sql, args...); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

func suffix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func ptr[T any](v T) *T { return &v }

// auditRow is what the tests compare: the action, the namespace and the actor of one audit row.
type auditRow struct {
	Action string
	NS     int64
	Actor  int64 // 0: none
}

// Every kind of lifecycle change, from the API and from raw SQL, becomes exactly one audit row
// with the right action, namespace and actor, in commit order.
func TestEveryActionBecomesExactlyOneAuditRow(t *testing.T) {
	e := newEnv(t)
	e.start()
	const owner, other = int64(11), int64(12)
	org := e.insert(nil, "organization", "acme")
	e.member(org, owner, 50)
	if _, err := e.lc.SetVisibility(e.ctx, org, "public", ptr(owner)); err != nil {
		t.Fatal(err)
	}
	grp := e.insert(&org, "group", "eng")
	prj := e.insert(&grp, "project", "api")
	dst := e.insert(&org, "group", "ops")
	e.member(grp, other, 30)
	e.member(grp, other, 40)
	if err := e.q.MemberDelete(e.ctx, db.MemberDeleteParams{NamespaceID: grp, UserID: other}); err != nil {
		t.Fatal(err)
	}
	mustEvent := func(ns int64, ev string, actor *int64) {
		t.Helper()
		if _, err := e.lc.Event(e.ctx, ns, ev, actor, nil); err != nil {
			t.Fatalf("%s: %v", ev, err)
		}
	}
	mustEvent(prj, "archive", ptr(owner))
	mustEvent(prj, "unarchive", ptr(owner))
	e.exec(`update lifecycle.namespaces set state = 6 where id = $1`, prj) // raw SQL: no actor
	mustEvent(prj, "unmaintain", ptr(owner))
	mustEvent(prj, "schedule_deletion", ptr(owner))
	mustEvent(prj, "restore", ptr(owner))
	if _, err := e.lc.Rename(e.ctx, prj, "api2", ptr(owner)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lc.SetVisibility(e.ctx, dst, "internal", ptr(owner)); err != nil {
		t.Fatal(err)
	}
	// A transfer the owner of both sides requests: accepted at once; the syncer moves it.
	if _, err := e.lc.RequestTransfer(e.ctx, prj, dst, ptr(owner)); err != nil {
		t.Fatal(err)
	}
	e.eventually("the syncer moves the project", 60*time.Second, func() bool {
		var parent int64
		_ = e.pool.QueryRow(e.ctx, `select parent_id from lifecycle.namespaces where id = $1`, prj).Scan(&parent)
		return parent == dst
	})
	// Delete now: the owner starts the deletion; the syncer removes it.
	doomed := e.insert(&org, "project", "doomed")
	mustEvent(doomed, "schedule_deletion", ptr(owner))
	mustEvent(doomed, "deletion_start", ptr(owner))
	e.eventually("the syncer deletes the project", 60*time.Second, func() bool {
		var n int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.deleted_namespaces where namespace_id = $1`, doomed).Scan(&n)
		return n == 1
	})
	// Requests that do not end in a move: declined, canceled, expired; and a move that fails.
	const dstOwner = int64(13)
	e.member(dst, dstOwner, 50)
	srcOwner := int64(14)
	e.member(grp, srcOwner, 50)
	a := e.insert(&grp, "project", "a")
	b := e.insert(&grp, "project", "b")
	c := e.insert(&grp, "project", "c")
	for _, ns := range []int64{a, b, c} {
		if _, err := e.lc.RequestTransfer(e.ctx, ns, dst, ptr(srcOwner)); err != nil {
			t.Fatal(err)
		}
	}
	var ra, rb int64
	e.pool.QueryRow(e.ctx, `select id from lifecycle.transfer_requests where namespace_id = $1`, a).Scan(&ra)
	e.pool.QueryRow(e.ctx, `select id from lifecycle.transfer_requests where namespace_id = $1`, b).Scan(&rb)
	if _, err := e.lc.DeclineTransfer(e.ctx, ra, ptr(dstOwner)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lc.CancelTransfer(e.ctx, rb, ptr(srcOwner)); err != nil {
		t.Fatal(err)
	}
	e.exec(`select lifecycle.transfer_requests_expire(now() + interval '30 days')`)
	d := e.insert(&grp, "project", "d")
	tx, err := e.pool.Begin(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nslifecycle.NewClient(tx).RequestTransfer(e.ctx, d, dst, ptr(owner)); err != nil {
		t.Fatal(err)
	}
	// The target is archived in the same transaction as the accept: the syncer's move fails.
	if _, err := tx.Exec(e.ctx, `update lifecycle.namespaces set state = 1 where id = $1`, dst); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.eventually("the syncer's move fails and ends the transfer", 60*time.Second, func() bool {
		var st int
		_ = e.pool.QueryRow(e.ctx, `select state from lifecycle.namespaces where id = $1`, d).Scan(&st)
		return st == 0
	})
	// A deletion started by the system is the sweeper's to run; here it fails and is requeued.
	f := e.insert(&grp, "project", "f")
	mustEvent(f, "schedule_deletion", ptr(owner))
	mustEvent(f, "deletion_start", nil)
	mustEvent(f, "deletion_failed", nil)

	e.exec(`truncate lifecycle.namespace_redirects`)
	e.caughtUp()

	rows, err := e.pool.Query(e.ctx, `select action, coalesce(namespace_id, 0), coalesce(actor_id, 0) from lifecycle.audit_events
		where (action <> 'namespace_created' or namespace_id in ($1, $2, $3, $4, $5)) and action not like 'member_%'
		   or namespace_id in ($1, $2) and action like 'member_%'
		order by id`, org, grp, prj, dst, doomed)
	if err != nil {
		t.Fatal(err)
	}
	var got []auditRow
	for rows.Next() {
		var r auditRow
		if err := rows.Scan(&r.Action, &r.NS, &r.Actor); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := []auditRow{
		{"namespace_created", org, 0}, {"member_added", org, 0}, {"visibility_changed", org, owner}, {"namespace_created", grp, 0}, {"namespace_created", prj, 0},
		{"namespace_created", dst, 0}, {"member_added", grp, 0}, {"member_changed", grp, 0}, {"member_removed", grp, 0},
		{"archived", prj, owner}, {"unarchived", prj, owner}, {"maintenance_started", prj, 0}, {"maintenance_ended", prj, owner},
		{"deletion_scheduled", prj, owner}, {"restored", prj, owner}, {"renamed", prj, owner}, {"visibility_changed", dst, owner},
		{"transfer_requested", prj, owner}, {"transfer_accepted", prj, owner}, {"transfer_started", prj, owner},
		{"transfer_completed", prj, owner}, {"transfer_finished", prj, 0},
		{"namespace_created", doomed, 0}, {"deletion_scheduled", doomed, owner}, {"deletion_started", doomed, owner},
		{"hard_deleted", doomed, 0},
		{"member_added", grp, 0},
		{"transfer_requested", a, srcOwner}, {"transfer_requested", b, srcOwner}, {"transfer_requested", c, srcOwner},
		{"transfer_declined", a, dstOwner}, {"transfer_canceled", b, srcOwner}, {"transfer_expired", c, 0},
		{"transfer_requested", d, owner}, {"transfer_accepted", d, owner}, {"transfer_started", d, owner}, {"archived", dst, 0},
		{"transfer_failed", d, owner}, {"transfer_finished", d, 0},
		{"deletion_scheduled", f, owner}, {"deletion_started", f, 0}, {"deletion_failed", f, 0},
		{"table_truncated", 0, 0},
	}
	// The move and the delete are the syncer's own work, made with its role: the system acts.
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("audit rows:\n got %v\nwant %v", got, want)
	}
	var notified int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.notifications n join lifecycle.audit_events a on a.id = n.audit_event_id
		where a.action = 'archived' and a.namespace_id = $2 and n.user_id = $1`, owner, prj).Scan(&notified); err != nil || notified != 1 {
		t.Fatalf("the owner's notifications for the archive: %d (%v), want 1", notified, err)
	}
	// The effective-state view follows, refreshed by the syncer: dst was archived.
	e.eventually("lifecycle.effective_states shows the archived target", 60*time.Second, func() bool {
		var eff string
		_ = e.pool.QueryRow(e.ctx, `select effective_state from lifecycle.effective_states where namespace_id = $1`, prj).Scan(&eff)
		return eff == "archived"
	})
	resp, err := http.Get("http://" + e.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(metrics, []byte(`lifecycle_syncer_audit_events_total{action="archived"}`)) ||
		!bytes.Contains(metrics, []byte("lifecycle_syncer_effective_states_refresh_seconds_count")) {
		t.Fatalf("/metrics lacks the audit and refresh series:\n%s", tail(string(metrics), 20))
	}
}

// 5,000 transitions while the syncer is killed at random moments and restarted: in the end every
// history row has exactly one audit row, and nothing else was recorded twice.
func TestKilledSyncerLosesAndDuplicatesNothing(t *testing.T) {
	e := newEnv(t)
	e.start()
	org := e.insert(nil, "organization", "load")
	var projects []int64
	for i := 0; i < 50; i++ {
		projects = append(projects, e.insert(&org, "project", fmt.Sprintf("p%d", i)))
	}

	const transitions = 5000
	done := make(chan error, 1)
	go func() {
		archived := make([]bool, len(projects))
		for i := 0; i < transitions; i++ {
			k := i % len(projects)
			ev := "archive"
			if archived[k] {
				ev = "unarchive"
			}
			if _, err := e.lc.Event(e.ctx, projects[k], ev, nil, nil); err != nil {
				done <- err
				return
			}
			archived[k] = !archived[k]
		}
		done <- nil
	}()

	kills := 0
	for running := true; running; {
		n, _ := rand.Int(rand.Reader, big.NewInt(700))
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		case <-time.After(300*time.Millisecond + time.Duration(n.Int64())*time.Millisecond):
			e.kill()
			kills++
			e.start()
		}
	}
	if kills < 3 {
		e.kill()
		kills++
		e.start()
	}
	e.caughtUp()

	var history, audited, missing, duplicated int
	err := e.pool.QueryRow(e.ctx, `
		with a as (select (details ->> 'state_update_id')::bigint as h, count(*) as n from lifecycle.audit_events
		            where details ? 'state_update_id' group by 1)
		select (select count(*) from lifecycle.namespace_state_updates),
		       (select coalesce(sum(n), 0) from a),
		       (select count(*) from lifecycle.namespace_state_updates s where not exists (select from a where a.h = s.id)),
		       (select count(*) from a where n > 1)`).Scan(&history, &audited, &missing, &duplicated)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d transitions, %d kills: %d history rows, %d audit rows for them", transitions, kills, history, audited)
	if history != transitions || audited != history || missing != 0 || duplicated != 0 {
		t.Fatalf("history %d, audit rows %d, history rows without an audit row %d, duplicated %d", history, audited, missing, duplicated)
	}
}

// Webhooks: signed, with an idempotency key; a 500 is retried until the attempts run out, a 400
// is not retried; a slow receiver does not hold up the audit.
func TestWebhookDeliveries(t *testing.T) {
	var mu sync.Mutex
	got := map[string][]*http.Request{}
	bodies := map[string][][]byte{}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[r.URL.Path] = append(got[r.URL.Path], r)
		bodies[r.URL.Path] = append(bodies[r.URL.Path], body)
		mu.Unlock()
		switch r.URL.Path {
		case "/ok":
			w.WriteHeader(200)
		case "/500":
			w.WriteHeader(500)
		case "/400":
			w.WriteHeader(400)
		case "/slow":
			<-release
			w.WriteHeader(200)
		}
	}))
	defer srv.Close()
	defer close(release)

	e := newEnv(t, "-webhook-max-attempts", "3", "-webhook-backoff", "100ms", "-webhook-timeout", "30s")
	org := e.insert(nil, "organization", "hooks")
	grp := e.insert(&org, "group", "eng")
	const secret = "0123456789abcdef-secret"
	// The receiver is on 127.0.0.1: loopback, which only the operator's allowlist opens.
	e.exec(`update lifecycle.settings set webhook_allowed_hosts = '{127.0.0.1}'`)
	for _, path := range []string{"/ok", "/500", "/400", "/slow"} {
		e.exec(`insert into lifecycle.webhooks (namespace_id, url, secret, actions) values ($1, $2, $3, '{archived}')`,
			org, srv.URL+path, secret)
	}
	e.start()
	if _, err := e.lc.Event(e.ctx, grp, "archive", nil, nil); err != nil {
		t.Fatal(err)
	}
	count := func(path string) int {
		mu.Lock()
		defer mu.Unlock()
		return len(got[path])
	}
	e.eventually("/ok is called and /500 tried 3 times", 30*time.Second, func() bool { return count("/ok") == 1 && count("/500") == 3 })

	mu.Lock()
	req, body := got["/ok"][0], bodies["/ok"][0]
	mu.Unlock()
	if sig := req.Header.Get(syncer.SignatureHeader); sig != syncer.Sign(secret, body) {
		t.Errorf("signature %q does not verify", sig)
	}
	if !bytes.Contains(body, []byte(`"action": "archived"`)) {
		t.Errorf("delivery without the action: %s", body)
	}
	// One key for the fact, as docs/operations.md describes it: the header is the body's
	// idempotency_key and the audit row's, "<commit LSN>/<position>", on every attempt (/500's
	// three) and on every webhook the fact went to.
	var delivered struct {
		ID             int64  `json:"id"`
		IdempotencyKey string `json:"idempotency_key"`
	}
	if err := json.Unmarshal(body, &delivered); err != nil {
		t.Fatal(err)
	}
	var auditKey string
	if err := e.pool.QueryRow(e.ctx, `select idempotency_key from lifecycle.audit_events where id = $1`,
		delivered.ID).Scan(&auditKey); err != nil {
		t.Fatal(err)
	}
	if auditKey != delivered.IdempotencyKey || !regexp.MustCompile(`^fact/[0-9]+$`).MatchString(auditKey) {
		t.Errorf("body idempotency_key %q, audit row's %q, want both fact/<the fact's id>", delivered.IdempotencyKey, auditKey)
	}
	mu.Lock()
	for path, reqs := range got {
		for i, r := range reqs {
			if k := r.Header.Get(syncer.IdempotencyHeader); k != auditKey {
				t.Errorf("%s attempt %d: Idempotency-Key %q, want the body's %q", path, i+1, k, auditKey)
			}
		}
	}
	mu.Unlock()
	readStatuses := func() map[string]string {
		statuses := map[string]string{}
		rows, err := e.pool.Query(e.ctx, `select w.url, d.status from lifecycle.webhook_deliveries d join lifecycle.webhooks w on w.id = d.webhook_id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var url, status string
			if err := rows.Scan(&url, &status); err != nil {
				t.Fatal(err)
			}
			statuses[strings.TrimPrefix(url, srv.URL)] = status
		}
		return statuses
	}
	// The receiver counts an attempt before the syncer records its result: wait for the results.
	var statuses map[string]string
	e.eventually("the results of the attempts to /ok, /500 and /400 are recorded", 30*time.Second, func() bool {
		statuses = readStatuses()
		return statuses["/ok"] != "pending" && statuses["/500"] != "pending" && statuses["/400"] != "pending"
	})
	if statuses["/ok"] != "delivered" || statuses["/500"] != "dead" || statuses["/400"] != "failed" || statuses["/slow"] != "pending" {
		t.Fatalf("delivery statuses %v: want /ok delivered, /500 dead, /400 failed, /slow still pending", statuses)
	}
	if n := count("/400"); n != 1 {
		t.Errorf("/400 called %d times, want once (a 400 is not retried)", n)
	}

	// The slow receiver still holds its request: the audit goes on regardless.
	if count("/slow") != 1 {
		t.Fatalf("/slow called %d times, want 1 (in flight)", count("/slow"))
	}
	start := time.Now()
	if _, err := e.lc.Event(e.ctx, grp, "unarchive", nil, nil); err != nil {
		t.Fatal(err)
	}
	e.eventually("the audit row of a change made while a delivery hangs", 10*time.Second, func() bool {
		var n int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where action = 'unarchived' and namespace_id = $1`, grp).Scan(&n)
		return n == 1
	})
	t.Logf("audit row recorded %s after the change, while a webhook request was in flight", time.Since(start).Round(time.Millisecond))
}

// With no lifecycle traffic at all, the slot's confirmed position keeps moving (the heartbeat),
// so an idle syncer does not make the server keep WAL.
func TestAnIdleSlotKeepsAdvancing(t *testing.T) {
	e := newEnv(t, "-heartbeat-interval", "200ms")
	e.start()
	confirmed := func() string {
		var lsn string
		if err := e.pool.QueryRow(e.ctx, `select confirmed_flush_lsn::text from pg_replication_slots where slot_name = $1`, e.slot).Scan(&lsn); err != nil {
			t.Fatal(err)
		}
		return lsn
	}
	seen := map[string]bool{confirmed(): true}
	e.eventually("the confirmed position moves three times", 60*time.Second, func() bool {
		seen[confirmed()] = true
		return len(seen) >= 4
	})
}

// SIGTERM: the syncer reports its position and exits 0; a missing slot is recreated, with a
// warning, and what was committed meanwhile is recorded from the outbox.
func TestShutdownAndAMissingSlot(t *testing.T) {
	e := newEnv(t)
	e.start()
	org := e.insert(nil, "organization", "term")
	e.caughtUp()
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := e.cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v, want exit 0", err)
	}
	if !strings.Contains(e.log.String(), `"msg":"shut down"`) {
		t.Fatalf("no clean shutdown in the log:\n%s", tail(e.log.String(), 10))
	}

	conn, err := e.pool.Acquire(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var database string
	if err := conn.QueryRow(e.ctx, "select current_database()").Scan(&database); err != nil {
		t.Fatal(err)
	}
	if err := dbtest.DropSlots(e.ctx, conn.Conn(), database, e.slot); err != nil {
		t.Fatal(err)
	}
	conn.Release()
	meanwhile := e.insert(&org, "project", "meanwhile")
	e.start()
	if !strings.Contains(e.log.String(), "replication slot was missing and has been created again") {
		t.Fatalf("a recreated slot is not reported:\n%s", tail(e.log.String(), 10))
	}
	e.auditedOnce(meanwhile)
	e.caughtUp()
}

// Slot names are cluster-wide: a slot of the same name that belongs to another database is
// refused with a clear error, not streamed from (nor taken over).
func TestASlotOfAnotherDatabaseIsRefused(t *testing.T) {
	other := newEnv(t)
	other.exec(`select pg_create_logical_replication_slot($1, 'pgoutput')`, other.slot)
	e := newEnv(t)
	cmd := exec.Command(binary, "-slot", other.slot, "-listen", "", "-log-format", "json")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+e.url)
	cmd.Stderr = e.log
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	e.eventually("the syncer refuses the other database's slot", 60*time.Second, func() bool {
		return strings.Contains(e.log.String(), "not this database's pgoutput slot: choose another -slot")
	})
	var active bool
	if err := other.pool.QueryRow(other.ctx, `select active from pg_replication_slots where slot_name = $1`, other.slot).Scan(&active); err != nil || active {
		t.Fatalf("the other database's slot: active %v (%v), want untouched", active, err)
	}
}

// The syncer needs no more than a role with LOGIN and REPLICATION that is a member of
// lifecycle_worker: with such a role it creates its publication and slot, records facts, runs a
// transfer's move and refreshes the view.
func TestTheSyncerRunsWithALeastPrivilegeRole(t *testing.T) {
	e := newEnv(t)
	role := "nslt_syncer_" + suffix()
	if _, err := e.pool.Exec(e.ctx, fmt.Sprintf(`create role %s login replication in role lifecycle_worker`, role)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := e.pool.Exec(context.Background(), "drop role if exists "+role); err != nil {
			t.Logf("drop role %s: %v", role, err)
		}
	})
	var super bool
	if err := e.pool.QueryRow(e.ctx, `select rolsuper from pg_roles where rolname = $1`, role).Scan(&super); err != nil || super {
		t.Fatalf("the role is a superuser or missing: %v %v", super, err)
	}
	u, err := url.Parse(e.url)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	superURL := e.url
	e.url = u.String()
	e.start()
	e.url = superURL

	org := e.insert(nil, "organization", "least")
	e.member(org, 31, 50)
	src := e.insert(&org, "group", "src")
	dst := e.insert(&org, "group", "dst")
	prj := e.insert(&src, "project", "app")
	if _, err := e.lc.RequestTransfer(e.ctx, prj, dst, ptr(int64(31))); err != nil {
		t.Fatal(err)
	}
	e.eventually("the syncer, as "+role+", moves the project", 60*time.Second, func() bool {
		var parent int64
		_ = e.pool.QueryRow(e.ctx, `select parent_id from lifecycle.namespaces where id = $1`, prj).Scan(&parent)
		return parent == dst
	})
	e.caughtUp()
	var n int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where namespace_id = $1 and action = 'transfer_completed'`,
		prj).Scan(&n); err != nil || n != 1 {
		t.Fatalf("transfer_completed audit rows: %d (%v), want 1", n, err)
	}
	var walsenders int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from pg_stat_activity where usename = $1 and backend_type = 'walsender'`,
		role).Scan(&walsenders); err != nil || walsenders != 1 {
		t.Fatalf("walsenders of %s: %d (%v), want the syncer's one", role, walsenders, err)
	}
	e.kill()
}

// metric reads one un-labelled series from /metrics (0 when absent).
func (e *env) metric(name string) float64 {
	e.t.Helper()
	v, _ := e.series(name)
	return v
}

// A backlog is recorded in group commits: many source transactions per transaction of the
// syncer's own, never more than -batch-max, each audited exactly once.
func TestABacklogIsRecordedInGroupCommits(t *testing.T) {
	e := newEnv(t, "-batch-max", "50", "-batch-wait", "20ms")
	e.start()
	e.caughtUp()
	e.kill()
	org := e.insert(nil, "organization", "backlog")
	var projects []int64
	for i := 0; i < 20; i++ {
		projects = append(projects, e.insert(&org, "project", fmt.Sprintf("p%d", i)))
	}
	const transitions = 1000
	for i := 0; i < transitions; i++ {
		ev := "archive"
		if (i/len(projects))%2 == 1 {
			ev = "unarchive"
		}
		if _, err := e.lc.Event(e.ctx, projects[i%len(projects)], ev, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	e.start()
	e.caughtUp()
	var history, audited int
	if err := e.pool.QueryRow(e.ctx, `select (select count(*) from lifecycle.namespace_state_updates),
		(select count(distinct details ->> 'state_update_id') from lifecycle.audit_events where details ? 'state_update_id')`).
		Scan(&history, &audited); err != nil {
		t.Fatal(err)
	}
	txs, batches := e.metric("lifecycle_syncer_transactions_total"), e.metric("lifecycle_syncer_batches_total")
	t.Logf("%d source transactions in %d batches", int(txs), int(batches))
	if history != transitions || audited != history {
		t.Fatalf("%d transitions: %d history rows, %d audited", transitions, history, audited)
	}
	if txs < transitions || batches > txs/5 || batches < txs/50 {
		t.Fatalf("%v source transactions recorded in %v batches: want batches of up to 50, most of them full", txs, batches)
	}
}

// Under steady changes the view is refreshed at most once per -refresh-min-interval (plus the
// refresh itself), not back to back.
func TestRefreshesKeepTheirMinimumInterval(t *testing.T) {
	e := newEnv(t, "-refresh-min-interval", "3s")
	e.start()
	e.caughtUp()
	org := e.insert(nil, "organization", "steady")
	project := e.insert(&org, "project", "p")
	start := e.metric("lifecycle_syncer_effective_states_refresh_seconds_count")
	begin := time.Now()
	for i := 0; time.Since(begin) < 4500*time.Millisecond; i++ {
		ev := "archive"
		if i%2 == 1 {
			ev = "unarchive"
		}
		if _, err := e.lc.Event(e.ctx, project, ev, nil, nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	n := e.metric("lifecycle_syncer_effective_states_refresh_seconds_count") - start
	// With a 100 ms debounce and no minimum, 4.5 s of changes every 100 ms refresh about 40 times.
	if n < 1 || n > 2 {
		t.Fatalf("%v refreshes in 4.5 s of steady changes with a 3 s minimum interval, want 1 or 2", n)
	}
}

// A batch is recorded whole or not at all: the syncer is SIGKILLed in the middle of recording a
// backlog (held at one fact by a lock, with the facts before it written in its open transaction,
// the backlog taken from the outbox as it becomes active), and none of that batch shows; rerun,
// every fact is recorded exactly once and no source transaction in part.
func TestABatchKilledMidwayLeavesNothing(t *testing.T) {
	e := newEnv(t, "-batch-max", "500", "-batch-wait", "300ms")
	e.start()
	org := e.insert(nil, "organization", "midway")
	var projects []int64
	for i := 0; i < 30; i++ {
		projects = append(projects, e.insert(&org, "project", fmt.Sprintf("p%d", i)))
	}
	e.caughtUp()
	e.kill()
	var before int64
	if err := e.pool.QueryRow(e.ctx, `select coalesce(max(id), 0) from lifecycle.namespace_state_updates`).Scan(&before); err != nil {
		t.Fatal(err)
	}

	// The backlog: 60 source transactions of three transitions (three facts) each.
	const sourceTxs, perTx = 60, 3
	for i := 0; i < sourceTxs; i++ {
		tx, err := e.pool.Begin(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		ev := "archive"
		if (i/(len(projects)/perTx))%2 == 1 {
			ev = "unarchive"
		}
		for j := 0; j < perTx; j++ {
			if _, err := nslifecycle.NewClient(tx).Event(e.ctx, projects[(i*perTx+j)%len(projects)], ev, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(e.ctx); err != nil {
			t.Fatal(err)
		}
	}
	// The audit row of the middle fact of the middle transaction waits for a lock the test holds.
	var mid int64
	if err := e.pool.QueryRow(e.ctx, `select id from lifecycle.namespace_state_updates where id > $1 order by id offset $2 limit 1`,
		before, sourceTxs/2*perTx+1).Scan(&mid); err != nil {
		t.Fatal(err)
	}
	const lockKey = 424242
	e.exec(`create function public.nslt_hold() returns trigger language plpgsql as $$
		begin perform pg_advisory_xact_lock_shared(` + strconv.Itoa(lockKey) + `); return new; end $$`)
	e.exec(fmt.Sprintf(`create trigger nslt_hold after insert on lifecycle.audit_events for each row
		when ((new.details ->> 'state_update_id')::bigint = %d) execute function public.nslt_hold()`, mid))
	holder, err := e.pool.Acquire(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	if _, err := holder.Exec(e.ctx, `select pg_advisory_lock($1)`, lockKey); err != nil {
		t.Fatal(err)
	}

	e.launch() // not healthy until the backlog is recorded
	var blocked int32
	e.eventually("the syncer's batch waits at the held fact", 60*time.Second, func() bool {
		return e.pool.QueryRow(e.ctx, `select pid from pg_locks where locktype = 'advisory' and objid = $1 and not granted`,
			lockKey).Scan(&blocked) == nil
	})
	var wrote bool
	if err := e.pool.QueryRow(e.ctx, `select backend_xid is not null from pg_stat_activity where pid = $1`, blocked).Scan(&wrote); err != nil || !wrote {
		t.Fatalf("the blocked transaction has written nothing yet (%v): not mid-batch", err)
	}
	// What shows now: none of the backlog, all of which the batch held holds.
	look := func() (rows int) {
		t.Helper()
		if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events where (details ->> 'state_update_id')::bigint > $1`,
			before).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	if atKill := look(); atKill != 0 {
		t.Fatalf("before the kill: %d backlog audit rows showing, want none (one batch holds them all)", atKill)
	}
	e.kill()
	if _, err := holder.Exec(e.ctx, `select pg_advisory_unlock($1)`, lockKey); err != nil {
		t.Fatal(err)
	}
	// The killed syncer's backend finishes the statement it had received: inside a transaction of
	// the syncer's own it then finds its client gone and rolls back; a drain's statement commits
	// on its own. Either way the batch shows whole or not at all.
	e.eventually("the killed syncer's backend ends", 60*time.Second, func() bool {
		var n int
		_ = e.pool.QueryRow(e.ctx, `select count(*) from pg_stat_activity where pid = $1`, blocked).Scan(&n)
		return n == 0
	})
	if after := look(); after != 0 && after != sourceTxs*perTx {
		t.Fatalf("after the kill: %d backlog audit rows; want none or all %d", after, sourceTxs*perTx)
	}

	e.exec(`drop trigger nslt_hold on lifecycle.audit_events`)
	e.start()
	e.caughtUp()
	var history, audited, missing, duplicated int
	if err := e.pool.QueryRow(e.ctx, `
		with a as (select (details ->> 'state_update_id')::bigint as h, count(*) as n from lifecycle.audit_events
		            where details ? 'state_update_id' group by 1)
		select (select count(*) from lifecycle.namespace_state_updates where id > $1),
		       (select coalesce(sum(n), 0) from a where h > $1),
		       (select count(*) from lifecycle.namespace_state_updates s where id > $1 and not exists (select from a where a.h = s.id)),
		       (select count(*) from a where n > 1)`, before).Scan(&history, &audited, &missing, &duplicated); err != nil {
		t.Fatal(err)
	}
	if history != sourceTxs*perTx || audited != history || missing != 0 || duplicated != 0 {
		t.Fatalf("history %d, audit rows %d, history rows without an audit row %d, duplicated %d", history, audited, missing, duplicated)
	}
}

// Any login may LISTEN to any channel: one with no grants at all hears nslifecycle_audit while the
// syncer records a private namespace's change, and learns nothing of it, no id, action or
// namespace (docs/reliability.md). What changed is in lifecycle.audit_events, which it cannot read.
func TestAuditNotificationTellsALoginWithoutGrantsNothing(t *testing.T) {
	e := newEnv(t)
	org := e.insert(nil, "organization", "hidden-"+suffix())
	e.exec(`update lifecycle.namespaces set visibility = 'private' where id = $1`, org)
	e.start()

	conn, err := pgx.Connect(e.ctx, dbtest.LoginAs(t, e.url, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(e.ctx, `select count(*) from lifecycle.audit_events`).Scan(&n); err == nil {
		t.Fatalf("a login without grants read lifecycle.audit_events (%d rows): the test needs one that cannot", n)
	}
	if _, err := conn.Exec(e.ctx, `listen nslifecycle_audit`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.lc.Event(e.ctx, org, "archive", nil, nil); err != nil {
		t.Fatal(err)
	}
	var audited int64
	e.eventually("the archive is audited", 30*time.Second, func() bool {
		return e.pool.QueryRow(e.ctx, `select id from lifecycle.audit_events where action = 'archived' and namespace_id = $1`, org).Scan(&audited) == nil
	})
	// The first may take a moment; then whatever else was sent is read until a quiet 2 s.
	heard := 0
	for wait := 30 * time.Second; ; wait = 2 * time.Second {
		wctx, cancel := context.WithTimeout(e.ctx, wait)
		note, err := conn.WaitForNotification(wctx)
		cancel()
		if err != nil {
			break
		}
		heard++
		if note.Payload != "" {
			t.Errorf("notification %d on %s carries %q; want no payload (the audit row is %d, namespace %d)",
				heard, note.Channel, note.Payload, audited, org)
		}
	}
	if heard == 0 {
		t.Fatal("no notification on nslifecycle_audit: the listener heard nothing to judge")
	}
	if !t.Failed() {
		t.Logf("%d notifications heard, none with a payload", heard)
	}
}
