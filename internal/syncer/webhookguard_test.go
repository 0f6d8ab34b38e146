package syncer

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// Numeric hosts are read as inet_aton and the WHATWG URL standard read them, so that 0x7f000001
// is judged as the 127.0.0.1 it dials.
func TestHostAddressReadsNumericForms(t *testing.T) {
	for _, c := range []struct {
		host, want string // want "": a host name; "bad": a number that is no address
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0", "0.0.0.0"},
		{"0x", "0.0.0.0"},
		{"1.0x7f.0.1", "1.127.0.1"},
		{"00000000000000000000177.0.0.1", "127.0.0.1"},
		{"::ffff:127.0.0.1", "::ffff:127.0.0.1"},
		{"256.1.1.1", "bad"},
		{"1.2.3.08", "bad"},
		{"0x100000000", "bad"},
		{"4294967296", "bad"},
		{"a.b.c.1.2", "bad"},
		{"hooks.example", ""},
		{"localhost", ""},
		{"1.example", ""},
	} {
		ip, ok, err := hostAddress(c.host)
		got := ""
		switch {
		case err != nil:
			got = "bad"
		case ok:
			got = ip.String()
		}
		if got != c.want {
			t.Errorf("hostAddress(%q) = %q (ok %v, err %v), want %q", c.host, got, ok, err, c.want)
		}
	}
}

// The syncer refuses at dial time exactly what the database refuses at registration: for each
// host, lifecycle.webhook_url_refusal (an IP-literal host judged by webhook_address_refusal) and
// the guard (hostAddress, then addressRefusal) agree on whether it is refused, and on why.
func TestAddressRulesAgreeWithSQL(t *testing.T) {
	pool := dbtest.Pool(t)
	hosts := []string{
		"0.0.0.0", "0.255.255.255", "1.0.0.0", "9.255.255.255", "10.0.0.0", "10.255.255.255", "11.0.0.0",
		"100.63.255.255", "100.64.0.0", "100.127.255.255", "100.128.0.0", "126.255.255.255", "127.0.0.1",
		"127.255.255.255", "128.0.0.0", "169.253.255.255", "169.254.169.254", "169.255.0.0", "172.15.255.255",
		"172.16.0.0", "172.31.255.255", "172.32.0.0", "192.167.255.255", "192.168.0.1", "192.169.0.0",
		"223.255.255.255", "224.0.0.1", "239.255.255.255", "240.0.0.1", "255.255.255.255", "8.8.8.8",
		"93.184.216.34", "0x7f000001", "2130706433", "0177.0.0.1", "127.1", "0x5db8d822", "256.1.1.1",
		"[::]", "[::1]", "[::2]", "[::7f00:1]", "[::ffff:127.0.0.1]", "[::ffff:8.8.8.8]", "[::ffff:a9fe:a9fe]",
		"[64:ff9b::a00:1]", "[64:ff9b::808:808]", "[64:ff9b:1::1]", "[fc00::1]", "[fdff:ffff::1]",
		"[fe80::1]", "[febf::1]", "[fec0::1]", "[ff02::1]", "[2606:4700::1111]", "[2001:db8::1]",
		"hooks.example",
	}
	for _, h := range hosts {
		var sqlWhy *string
		if err := pool.QueryRow(context.Background(), `select lifecycle.webhook_url_refusal($1, '{}')`, "http://"+h+"/").Scan(&sqlWhy); err != nil {
			t.Fatal(err)
		}
		goWhy := ""
		ip, ok, err := hostAddress(strings.Trim(h, "[]"))
		if err != nil {
			goWhy = "not an address"
		} else if ok {
			goWhy = addressRefusal(ip)
		}
		switch {
		case sqlWhy == nil && goWhy == "":
		case sqlWhy == nil || goWhy == "":
			t.Errorf("%s: SQL says %v, the syncer %q: they must agree", h, orAllowed(sqlWhy), goWhy)
		case goWhy != "not an address" && !strings.HasSuffix(*sqlWhy, goWhy):
			t.Errorf("%s: SQL says %q, the syncer %q", h, *sqlWhy, goWhy)
		}
	}
}

func codeText(code *int32) string {
	if code == nil {
		return "null"
	}
	return fmt.Sprint(*code)
}

func orAllowed(s *string) string {
	if s == nil {
		return "<allowed>"
	}
	return *s
}

// deliveryEnv is a database of the test's own, a syncer on it (not running: the test drives one
// claim at a time), and one namespace to hang webhooks on.
type deliveryEnv struct {
	t    *testing.T
	ctx  context.Context
	pool *pgxpool.Pool
	s    *Syncer
	ns   int64
	n    int
}

func newDeliveryEnv(t *testing.T) *deliveryEnv {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dbtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	cfg := Config{WebhookTimeout: 5 * time.Second, WebhookMaxAttempts: 3, WebhookBackoff: time.Hour, WebhookWorkers: 1}
	e := &deliveryEnv{t: t, ctx: ctx, pool: pool, s: New(pool, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), prometheus.NewRegistry())}
	if err := pool.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'hooks', 'hooks') returning id`).Scan(&e.ns); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *deliveryEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.pool.Exec(e.ctx, sql, args...); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

// attempt makes one delivery to url and returns what lifecycle.webhook_deliveries says of it.
// The webhook is written with its trigger off, as a host name that resolves to a forbidden
// address would have been registered: registration cannot know what a name will resolve to.
func (e *deliveryEnv) attempt(url string) (status string, code *int32, lastError string) {
	e.t.Helper()
	e.n++
	tx, err := e.pool.Begin(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	defer tx.Rollback(e.ctx)
	var hook, event int64
	if _, err := tx.Exec(e.ctx, `set local session_replication_role = replica`); err != nil {
		e.t.Fatal(err)
	}
	if err := tx.QueryRow(e.ctx, `insert into lifecycle.webhooks (namespace_id, url, secret) values ($1, $2, 'a-secret-of-sixteen+') returning id`,
		e.ns, url).Scan(&hook); err != nil {
		e.t.Fatal(err)
	}
	key := fmt.Sprintf("0/%X/0", e.n)
	if err := tx.QueryRow(e.ctx, `insert into lifecycle.audit_events (idempotency_key, source_lsn, source_position, committed_at, action, namespace_id)
		values ($1, '0/1', $2, now(), 'archived', $3) returning id`, key, e.n, e.ns).Scan(&event); err != nil {
		e.t.Fatal(err)
	}
	if _, err := tx.Exec(e.ctx, `insert into lifecycle.webhook_deliveries (webhook_id, audit_event_id, idempotency_key, body)
		values ($1, $2, $3, jsonb_build_object('id', $2::bigint, 'idempotency_key', $3::text))`, hook, event, key+"/1"); err != nil {
		e.t.Fatal(err)
	}
	if err := tx.Commit(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	batch, err := e.s.claimDeliveries(e.ctx, 10)
	if err != nil || len(batch) != 1 {
		e.t.Fatalf("claimed %d deliveries (%v), want the one just made", len(batch), err)
	}
	e.s.deliver(e.ctx, batch[0])
	var lastErr *string
	if err := e.pool.QueryRow(e.ctx, `select status, last_status_code, last_error from lifecycle.webhook_deliveries where idempotency_key = $1`,
		key+"/1").Scan(&status, &code, &lastErr); err != nil {
		e.t.Fatal(err)
	}
	if lastErr != nil {
		lastError = *lastErr
	}
	return status, code, lastError
}

// serveOn starts a test server on a given loopback address (Linux routes all of 127/8 to lo).
func serveOn(t *testing.T, ip string, h http.Handler) *httptest.Server {
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// A redirect is never followed, even to a receiver that is allowed: a 3xx is the answer, recorded
// as its status code and a fixed sentence.
func TestAWebhookRedirectIsNotFollowed(t *testing.T) {
	e := newDeliveryEnv(t)
	var followed atomic.Int32
	var srv *httptest.Server
	srv = serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/target" {
			followed.Add(1)
			w.WriteHeader(http.StatusOK)
			return
		}
		http.Redirect(w, r, srv.URL+"/target", http.StatusTemporaryRedirect)
	}))
	e.exec(`update lifecycle.settings set webhook_allowed_hosts = '{127.0.0.2}'`)

	status, code, lastError := e.attempt(srv.URL + "/moved")
	if followed.Load() != 0 {
		t.Errorf("the redirect was followed (%d requests to its target)", followed.Load())
	}
	if code == nil || *code != http.StatusTemporaryRedirect || status != "pending" {
		t.Errorf("status %s, last_status_code %s: want pending (retried) with 307", status, codeText(code))
	}
	if want := "receiver answered HTTP 307, a redirect (not followed)"; lastError != want {
		t.Errorf("last_error %q, want %q", lastError, want)
	}
	if status, _, _ := e.attempt(srv.URL + "/target"); status != "delivered" {
		t.Errorf("the target itself: %s, want delivered (the receiver is allowed)", status)
	}
}

// lifecycle_app reads last_error: nothing a receiver answers reaches it, only the status code.
func TestAReceiversAnswerNeverReachesLastError(t *testing.T) {
	e := newDeliveryEnv(t)
	const leak = "ssh-rsa AAAA-private-bytes-of-the-internal-service"
	srv := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Internal", leak)
		code := http.StatusInternalServerError
		if r.URL.Path == "/400" {
			code = http.StatusBadRequest
		}
		w.WriteHeader(code)
		fmt.Fprintf(w, "%s\n%s", leak, strings.Repeat("x", 4096))
	}))
	e.exec(`update lifecycle.settings set webhook_allowed_hosts = '{127.0.0.2}'`)

	for _, c := range []struct {
		path, status string
		code         int32
	}{{"/500", "pending", 500}, {"/400", "failed", 400}} {
		status, code, lastError := e.attempt(srv.URL + c.path)
		if status != c.status || code == nil || *code != c.code {
			t.Errorf("%s: status %s, last_status_code %s, want %s with %d", c.path, status, codeText(code), c.status, c.code)
		}
		if want := fmt.Sprintf("receiver answered HTTP %d", c.code); lastError != want {
			t.Errorf("%s: last_error %q, want %q", c.path, lastError, want)
		}
	}
	var leaked int
	if err := e.pool.QueryRow(e.ctx, `select count(*) from lifecycle.webhook_deliveries where last_error like '%private-bytes%'`).Scan(&leaked); err != nil || leaked != 0 {
		t.Errorf("%d deliveries hold the receiver's bytes (%v)", leaked, err)
	}
}

// Only the addresses the operator allows are reached: with 127.0.0.2 allowed, a receiver on
// 127.0.0.1 is never connected to, however its host is written, a name that resolves there
// (localhost) included. The refusal is the dial's (the receiver is listening, and is not called),
// and last_error says it without naming the address.
func TestAHostResolvingToAForbiddenAddressIsRefusedAtDial(t *testing.T) {
	e := newDeliveryEnv(t)
	allowed := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	var reached atomic.Int32
	forbidden := serveOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	e.exec(`update lifecycle.settings set webhook_allowed_hosts = '{127.0.0.2}'`)
	port := forbidden.Listener.Addr().(*net.TCPAddr).Port

	if status, _, lastError := e.attempt(allowed.URL + "/ok"); status != "delivered" {
		t.Fatalf("the allowed receiver: %s (%s), want delivered", status, lastError)
	}
	// The forbidden receiver answers whoever connects: had it been dialled, it would have said 204.
	if resp, err := http.Get(forbidden.URL); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the receiver on 127.0.0.1 does not answer directly: %v", err)
	}
	reached.Store(0)
	for _, host := range []string{"localhost", "127.0.0.1", "0x7f000001", "2130706433", "127.1", "[::ffff:127.0.0.1]"} {
		url := fmt.Sprintf("http://%s:%d/hook", host, port)
		status, code, lastError := e.attempt(url)
		if code != nil || status != "pending" {
			t.Errorf("%s: status %s, last_status_code %s: want pending without an answer", url, status, codeText(code))
		}
		if want := "refused: the host does not resolve to an address webhooks may be sent to"; lastError != want {
			t.Errorf("%s: last_error %q, want %q", url, lastError, want)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the receiver on 127.0.0.1 was called %d times", n)
	}
}

// The allowlist's entries: addresses and ranges match IPv4-mapped forms too; names match exactly.
func TestAllowlist(t *testing.T) {
	a := parseAllowlist([]string{"127.0.0.2", "10.20.0.0/16", "fd00::/8", "hooks.internal"})
	for _, c := range []struct {
		ip   string
		want bool
	}{
		{"127.0.0.2", true}, {"::ffff:127.0.0.2", true}, {"127.0.0.1", false}, {"10.20.255.1", true},
		{"10.21.0.1", false}, {"fd12::1", true}, {"fe80::1", false},
	} {
		if got := a.allows(netip.MustParseAddr(c.ip)); got != c.want {
			t.Errorf("allows(%s) = %v, want %v", c.ip, got, c.want)
		}
	}
	if !a.hosts["hooks.internal"] || a.hosts["internal"] {
		t.Errorf("hosts %v: want exactly hooks.internal", a.hosts)
	}
}
