package syncer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/nslifecycle/nslifecycle/internal/db"
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

// The syncer refuses at dial time exactly what the database refuses at registration: both read
// lifecycle.webhook_forbidden_ranges, and for each host lifecycle.webhook_url_refusal and the guard
// (normalizeHost, then hostRefusal on the ranges as the syncer reads them) agree on whether it is
// refused, and on why. A range added to the table is then refused by both, with its reason.
func TestAddressRulesAgreeWithSQL(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	// One transaction, rolled back: the range added below is seen by nobody else.
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
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
		// The attacker's: a cloud's metadata address in 192.0.0.0/24, benchmarking, and the other
		// special-purpose ranges, in each form; the edges of each range.
		"192.0.0.192", "192.0.0.0", "192.0.0.8", "192.0.0.9", "192.0.0.170", "192.0.0.255", "192.0.1.0",
		"191.255.255.255", "198.18.0.1", "198.17.255.255", "198.19.255.255", "198.20.0.0", "192.0.2.1",
		"198.51.100.1", "203.0.113.1", "192.88.99.1", "192.88.99.2", "192.31.196.1", "192.175.48.1",
		"0xc00000c0", "3221225664", "0300.0.0.0300", "198.18.1", "0xc6120001",
		"[::ffff:192.0.0.192]", "[::ffff:c612:1]", "[64:ff9b::c000:c0]", "[64:ff9b::c612:1]", "[64:ff9b:2::1]",
		"[100::1]", "[100:0:0:1::1]", "[2001::1]", "[2001:1::1]", "[2001:2::1]", "[2001:4:112::1]", "[2001:20::1]",
		"[2001:200::1]", "[2002:7f00:1::]", "[2002:808:808::1]", "[3fff::1]", "[3fff:1000::1]", "[5f00::1]",
		"[4000::1]", "[1::1]", "[fe00::1]", "[2620:4f:8000::1]", "[2001:4860:4860::8888]",
		// Unicode forms: NFKC, the ideographic full stops, upper case.
		"localhost", "api.localhost", "localhost.example", "ⓛocalhost", "Ⓛocalhost", "ＬＯＣＡＬＨＯＳＴ",
		"api.ⓛocalhost", "１２７.０.０.１", "127。0。0。1", "127．0．0．1", "127｡0｡0｡1", "０ｘ７ｆ０００００１",
		"①⑨②.０.０.①⑨②", "１９８.１８.０.１", "[：：１]", "[６４:ｆｆ９ｂ::７ｆ００:１]", "bücher.example", "ＨＯＯＫＳ.example",
	}
	rules, err := readForbiddenRanges(ctx, db.New(tx))
	if err != nil {
		t.Fatal(err)
	}
	agree := func(rules addressRules, h string) (sqlWhy *string, goWhy string) {
		t.Helper()
		if err := tx.QueryRow(ctx, `select lifecycle.webhook_url_refusal($1, '{}')`, "http://"+h+"/").Scan(&sqlWhy); err != nil {
			t.Fatal(err)
		}
		_, _, goWhy = rules.hostRefusal(normalizeHost(strings.Trim(h, "[]")))
		switch {
		case sqlWhy == nil && goWhy == "":
		case sqlWhy == nil || goWhy == "":
			t.Errorf("%s: SQL says %v, the syncer %q: they must agree", h, orAllowed(sqlWhy), goWhy)
		case !strings.HasSuffix(*sqlWhy, goWhy):
			t.Errorf("%s: SQL says %q, the syncer %q", h, *sqlWhy, goWhy)
		}
		return sqlWhy, goWhy
	}
	refused := 0
	for _, h := range hosts {
		if _, goWhy := agree(rules, h); goWhy != "" {
			refused++
		}
	}
	if refused < 60 || refused > len(hosts)-20 {
		t.Errorf("%d of %d hosts refused: the list no longer tests both answers", refused, len(hosts))
	}

	const public, why = "203.0.114.7", "a range of this test (203.0.114.0/24)"
	if _, goWhy := agree(rules, public); goWhy != "" {
		t.Fatalf("%s is refused before its range is added: %s", public, goWhy)
	}
	if _, err := tx.Exec(ctx, `insert into lifecycle.webhook_forbidden_ranges (network, reason, source) values ('203.0.114.0/24', $1, 'TestAddressRulesAgreeWithSQL')`, why); err != nil {
		t.Fatal(err)
	}
	if rules, err = readForbiddenRanges(ctx, db.New(tx)); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{public, "[::ffff:203.0.114.7]", "２０３.０.１１４.７"} {
		if _, goWhy := agree(rules, h); goWhy != why {
			t.Errorf("%s: the syncer says %q once the range is added, want %q", h, goWhy, why)
		}
	}
}

// The guard itself reads a host as the SQL does, whatever the HTTP client made of it before the
// dial: each Unicode form of a forbidden host, and each of the attacker's addresses, is refused
// without a connection (the dialer would fail the test), as lifecycle.webhook_url_refusal refuses it.
func TestTheGuardRefusesWhatTheSQLRefusesInEveryForm(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	rules, err := readForbiddenRanges(ctx, db.New(pool))
	if err != nil {
		t.Fatal(err)
	}
	g := newGuard()
	g.setRules(rules)
	g.dialer = &net.Dialer{Control: func(network, address string, _ syscall.RawConn) error {
		t.Errorf("the guard dialled %s", address)
		return errors.New("no dial in this test")
	}}
	for _, c := range []struct{ host, why string }{
		{"ⓛocalhost", "this machine (localhost)"},
		{"Ⓛocalhost.", "this machine (localhost)"},
		{"api.ⓛocalhost", "this machine (localhost)"},
		{"１２７.０.０.１", "loopback (127.0.0.0/8)"},
		{"127。0。0。1", "loopback (127.0.0.0/8)"},
		{"127．0．0．1", "loopback (127.0.0.0/8)"},
		{"127｡0｡0｡1", "loopback (127.0.0.0/8)"},
		{"０ｘ７ｆ０００００１", "loopback (127.0.0.0/8)"},
		{"192.0.0.192", "reserved for IETF protocol assignments (192.0.0.0/24, where some cloud metadata services answer)"},
		{"198.18.0.1", "reserved for benchmarking (198.18.0.0/15)"},
		{"１９８.１８.０.１", "reserved for benchmarking (198.18.0.0/15)"},
		{"::ffff:192.0.0.192", "reserved for IETF protocol assignments (192.0.0.0/24, where some cloud metadata services answer)"},
		{"64:ff9b::c612:1", "reserved for benchmarking (198.18.0.0/15)"},
		{"2002:7f00:1::", "6to4 (2002::/16, which tunnels to the IPv4 address it embeds)"},
	} {
		_, err := g.dialContext(ctx, "tcp", net.JoinHostPort(c.host, "80"))
		var forbidden *errForbiddenAddress
		if !errors.As(err, &forbidden) || forbidden.reason != c.why {
			t.Errorf("%s: %v, want refused as %s", c.host, err, c.why)
			continue
		}
		var sqlWhy *string
		if err := pool.QueryRow(ctx, `select lifecycle.webhook_url_refusal($1, '{}')`,
			"http://"+net.JoinHostPort(c.host, "80")+"/").Scan(&sqlWhy); err != nil {
			t.Fatal(err)
		}
		if sqlWhy == nil || !strings.HasSuffix(*sqlWhy, c.why) {
			t.Errorf("%s: SQL says %v, want refused as %s", c.host, orAllowed(sqlWhy), c.why)
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
	log  *lockedBuffer // what the syncer logged
	ns   int64
	n    int
}

// lockedBuffer is a log's destination that the delivery workers may write to at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newDeliveryEnv(t *testing.T) *deliveryEnv {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dbtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	cfg := Config{WebhookTimeout: 5 * time.Second, WebhookMaxAttempts: 3, WebhookBackoff: time.Hour, WebhookWorkers: 1}
	log := &lockedBuffer{}
	e := &deliveryEnv{t: t, ctx: ctx, pool: pool, log: log, s: New(pool, cfg, slog.New(slog.NewTextHandler(log, nil)), prometheus.NewRegistry())}
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
func (e *deliveryEnv) attempt(url string) (status string, code *int32, lastError string) {
	e.t.Helper()
	key := e.enqueue(url)
	batch, err := e.s.claimDeliveries(e.ctx, 10)
	if err != nil || len(batch) != 1 {
		e.t.Fatalf("claimed %d deliveries (%v), want the one just made", len(batch), err)
	}
	e.s.deliver(e.ctx, batch[0])
	status, code, lastError, _ = e.delivery(key)
	return status, code, lastError
}

// delivery is what lifecycle.webhook_deliveries says of the delivery with key.
func (e *deliveryEnv) delivery(key string) (status string, code *int32, lastError string, attempts int32) {
	e.t.Helper()
	var lastErr *string
	if err := e.pool.QueryRow(e.ctx, `select status, last_status_code, last_error, attempts from lifecycle.webhook_deliveries where idempotency_key = $1`,
		key).Scan(&status, &code, &lastErr, &attempts); err != nil {
		e.t.Fatal(err)
	}
	if lastErr != nil {
		lastError = *lastErr
	}
	return status, code, lastError, attempts
}

// enqueue makes a webhook to url and one due delivery to it, and returns the delivery's key. The
// webhook is written with its trigger off, as a host name that resolves to a forbidden address
// would have been registered: registration cannot know what a name will resolve to.
func (e *deliveryEnv) enqueue(url string) string {
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
	return key + "/1"
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
	for _, host := range []string{"localhost", "127.0.0.1", "0x7f000001", "2130706433", "127.1", "[::ffff:127.0.0.1]",
		"ⓛocalhost", "１２７.０.０.１", "127。0。0。1"} {
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

// The syncer sends nothing while it cannot read lifecycle.webhook_forbidden_ranges (fail closed),
// and logs why: not when the table is missing, not when it is empty, not even to a receiver the
// operator allows. The deliveries it claimed meanwhile keep their attempts, and are sent once the
// table can be read again.
func TestNoWebhookIsSentWhileTheForbiddenRangesCannotBeRead(t *testing.T) {
	e := newDeliveryEnv(t)
	var reached atomic.Int32
	srv := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	e.exec(`update lifecycle.settings set webhook_allowed_hosts = '{127.0.0.2}'`)
	if status, _, lastError := e.attempt(srv.URL + "/first"); status != "delivered" {
		t.Fatalf("with the table readable: %s (%s), want delivered", status, lastError)
	}

	for _, c := range []struct{ name, breakIt, mendIt, logged string }{
		{"the table missing", `alter table lifecycle.webhook_forbidden_ranges rename to webhook_forbidden_ranges_away`,
			`alter table lifecycle.webhook_forbidden_ranges_away rename to webhook_forbidden_ranges`, "read lifecycle.webhook_forbidden_ranges"},
		{"the table empty", `create table lifecycle.webhook_forbidden_ranges_kept as select * from lifecycle.webhook_forbidden_ranges;
			delete from lifecycle.webhook_forbidden_ranges`,
			`insert into lifecycle.webhook_forbidden_ranges select * from lifecycle.webhook_forbidden_ranges_kept;
			drop table lifecycle.webhook_forbidden_ranges_kept`, "lifecycle.webhook_forbidden_ranges has no rows"},
	} {
		reached.Store(0)
		e.exec(c.breakIt)
		key := e.enqueue(srv.URL + "/" + strings.ReplaceAll(c.name, " ", "-"))
		batch, err := e.s.claimDeliveries(e.ctx, 10)
		if err != nil || len(batch) != 0 {
			t.Errorf("%s: claimed %d deliveries to send (%v), want none", c.name, len(batch), err)
		}
		for _, d := range batch {
			e.s.deliver(e.ctx, d)
		}
		// The guard refuses a dial meanwhile too, whoever asks it.
		if _, err := e.s.guard.dialContext(e.ctx, "tcp", srv.Listener.Addr().String()); !errors.Is(err, errNoAddressRules) {
			t.Errorf("%s: the guard dials (%v), want errNoAddressRules", c.name, err)
		}
		if n := reached.Load(); n != 0 {
			t.Errorf("%s: the receiver was called %d times", c.name, n)
		}
		if status, _, _, attempts := e.delivery(key); status != "pending" || attempts != 0 {
			t.Errorf("%s: the delivery is %s after %d attempts, want pending after none", c.name, status, attempts)
		}
		if log := e.log.String(); !strings.Contains(log, "webhooks not sent") || !strings.Contains(log, c.logged) {
			t.Errorf("%s: the log does not say why nothing was sent (%q):\n%s", c.name, c.logged, log)
		}

		e.exec(c.mendIt)
		e.exec(`update lifecycle.webhook_deliveries set next_attempt_at = now() where idempotency_key = $1`, key) // the lease, ended
		batch, err = e.s.claimDeliveries(e.ctx, 10)
		if err != nil || len(batch) != 1 {
			t.Fatalf("%s, mended: claimed %d deliveries (%v), want the one left", c.name, len(batch), err)
		}
		e.s.deliver(e.ctx, batch[0])
		if status, _, lastError, _ := e.delivery(key); status != "delivered" || reached.Load() != 1 {
			t.Errorf("%s, mended: %s (%s), receiver called %d times; want delivered once", c.name, status, lastError, reached.Load())
		}
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
