package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/syncer"
	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

// The roles of the managed-service test: the owner a provider's admin user makes (no superuser),
// and the three logins the owner makes for the application, the sweeper and the syncer.
const (
	managedOwner   = "nsl_owner"
	managedApp     = "nsl_app"
	managedSweeper = "nsl_sweeper"
	managedSyncer  = "nsl_syncer"
)

// Issue 25, "Managed PostgreSQL": a managed service (Amazon RDS and Aurora, Google Cloud SQL, Azure
// Flexible Server) gives no superuser, only an admin login that creates roles and databases, and
// its own way to give a role the replication right. On a cluster of the test's own, the superuser
// plays the provider: it creates the owner login NOSUPERUSER CREATEROLE CREATEDB and, later, gives
// the syncer's login REPLICATION (as GRANT rds_replication would); nothing else. The owner creates
// the database, runs the migrations (which create lifecycle_app, lifecycle_worker and pgcrypto, a
// trusted extension) and the three logins; it cannot give REPLICATION itself (42501). A syncer
// started before the grant exits 3 with one ERROR line saying what to grant. Then the application's
// login calls the API (creations, members, a webhook, archive and unarchive, a rename, a restore, a
// transfer the syncer carries out, a pending transfer, a scheduled deletion), the sweeper's login
// runs the sweeper, told the grace period is over: it hard-deletes the scheduled namespace and
// expires the pending transfer; and the syncer's login records every fact exactly once (each
// history row has one audit row; every other fact has the audit row the operations made; the
// outbox is empty) and signs the webhook delivery with a secret it cannot read. The syncer's login
// reads no secret (42501 on lifecycle.fact_key and on webhooks.secret, and no readable column of
// the schema is named like a secret), the server's log shows no session but those of the four
// logins from the moment the owner took over, and no role involved is a superuser.
func TestEverythingRunsWithRolesANonSuperuserOwnerMade(t *testing.T) {
	c := testtools.NewCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	must := func(conn *pgx.Conn, sql string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	connect := func(role, dbname string) *pgx.Conn {
		t.Helper()
		conn, err := pgx.Connect(ctx, c.URLAs(role, dbname))
		if err != nil {
			t.Fatalf("connect as %s to %s: %v", role, dbname, err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		return conn
	}

	// The provider: one superuser session, opened before the server logs sessions.
	provider := connect("postgres", "postgres")
	must(provider, "create role "+managedOwner+" login nosuperuser createrole createdb")
	must(provider, "alter system set log_connections = on")
	must(provider, "select pg_reload_conf()")

	// From here on every session is one of the four logins'. A new session sees log_connections on
	// once the postmaster has read the configuration again.
	var setup *pgx.Conn
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		conn := connect(managedOwner, "postgres")
		var on string
		if err := conn.QueryRow(ctx, "show log_connections").Scan(&on); err != nil {
			t.Fatal(err)
		}
		if on == "on" {
			setup = conn
			break
		}
		conn.Close(ctx)
		if time.Now().After(deadline) {
			t.Fatal("log_connections is still off 30 s after the reload")
		}
	}
	must(setup, "create database nslifecycle")
	owner := connect(managedOwner, "nslifecycle")
	if err := nslifecycle.Migrate(ctx, owner); err != nil {
		t.Fatalf("the migrations, run by an owner that is no superuser: %v", err)
	}
	must(owner, "create role "+managedApp+" login in role lifecycle_app")
	must(owner, "create role "+managedSweeper+" login in role lifecycle_worker")
	must(owner, "create role "+managedSyncer+" login in role lifecycle_worker")
	// The owner cannot give the replication right: the provider's admin does (operations.md).
	_, err := owner.Exec(ctx, "alter role "+managedSyncer+" replication")
	if pgErr := (*pgconn.PgError)(nil); !errors.As(err, &pgErr) || pgErr.Code != "42501" {
		t.Fatalf("the owner gives %s REPLICATION: %v, want 42501", managedSyncer, err)
	}
	// Webhooks to this test's receiver, on loopback, which only the schema owner may allow.
	must(owner, "update lifecycle.settings set webhook_allowed_hosts = '{127.0.0.1}'")

	appURL := c.URLAs(managedApp, "nslifecycle")
	e := newEnvAt(t, appURL)
	e.url = c.URLAs(managedSyncer, "nslifecycle")

	// A syncer started before the grant says what to grant, once, and exits.
	e.launch()
	if code := e.exitCode(60 * time.Second); code != exitNoReplicationRight {
		t.Fatalf("the syncer without REPLICATION: exit %d, want %d", code, exitNoReplicationRight)
	}
	e.saysWhatToGrant(managedSyncer)

	// The provider's grant, the superuser's last act.
	must(provider, "alter role "+managedSyncer+" replication")
	provider.Close(ctx)
	e.log = &syncBuffer{}
	e.start()

	// A receiver of the webhook, which checks the signature the syncer makes.
	var mu sync.Mutex
	var deliveries, verified int
	const secret = "managed-service-webhook-secret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		deliveries++
		if r.Header.Get(syncer.SignatureHeader) == syncer.Sign(secret, body) {
			verified++
		}
		mu.Unlock()
	}))
	defer srv.Close()

	// The application's calls, as its login.
	const orgOwner, grpOwner = int64(11), int64(12)
	created := map[int64]bool{}
	insert := func(parent *int64, typ, path string) int64 {
		t.Helper()
		id := e.insert(parent, typ, path)
		created[id] = true
		return id
	}
	event := func(ns int64, ev string, actor int64) {
		t.Helper()
		if _, err := e.lc.Event(e.ctx, ns, ev, &actor, nil); err != nil {
			t.Fatalf("%s of %d: %v", ev, ns, err)
		}
	}
	org := insert(nil, "organization", "acme")
	e.member(org, orgOwner, 50)
	e.exec(`insert into lifecycle.webhooks (namespace_id, url, secret, actions) values ($1, $2, $3, '{archived}')`,
		org, srv.URL+"/hook", secret)
	grp := insert(&org, "group", "eng")
	e.member(grp, grpOwner, 50)
	dst := insert(&org, "group", "ops")
	api := insert(&grp, "project", "api")
	web := insert(&grp, "project", "web")
	old := insert(&grp, "project", "old")
	moved := insert(&grp, "project", "moved")
	event(api, "archive", orgOwner)
	event(api, "unarchive", orgOwner)
	if _, err := e.lc.Rename(e.ctx, grp, "engineering", ptr(orgOwner)); err != nil {
		t.Fatal(err)
	}
	event(web, "schedule_deletion", orgOwner)
	event(web, "restore", orgOwner)
	event(old, "schedule_deletion", orgOwner)
	// The organization's owner owns both sides: accepted at once, moved by the syncer.
	if req, err := e.lc.RequestTransfer(e.ctx, moved, dst, ptr(orgOwner)); err != nil || req.Status != "accepted" {
		t.Fatalf("request the transfer of %d: %+v, %v (want it accepted at once)", moved, req, err)
	}
	// The group's owner does not own the target: pending, until the sweeper expires it.
	pending, err := e.lc.RequestTransfer(e.ctx, api, dst, ptr(grpOwner))
	if err != nil || pending.Status != "pending" {
		t.Fatalf("request the transfer of %d: %+v, %v (want it pending)", api, pending, err)
	}
	e.eventually("the syncer, as "+managedSyncer+", moves the project", 60*time.Second, func() bool {
		var parent int64
		_ = e.pool.QueryRow(e.ctx, `select parent_id from lifecycle.namespaces where id = $1`, moved).Scan(&parent)
		return parent == dst
	})
	e.eventually("the syncer, as "+managedSyncer+", delivers the webhook", 60*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return deliveries > 0
	})

	// The sweeper, as its login, told the grace period (7 days) and the request's lifetime (7 days)
	// are over.
	sweeper := filepath.Join(t.TempDir(), "sweeper")
	if out, err := exec.Command("go", "build", "-o", sweeper, "../sweeper").CombinedOutput(); err != nil {
		t.Fatalf("build the sweeper: %v\n%s", err, out)
	}
	sweep := exec.CommandContext(ctx, sweeper, "-log-format", "json", "-now", time.Now().Add(8*24*time.Hour).UTC().Format(time.RFC3339))
	sweep.Env = append(os.Environ(), "DATABASE_URL="+c.URLAs(managedSweeper, "nslifecycle"))
	dieWithParent(sweep)
	out, err := sweep.CombinedOutput()
	if err != nil {
		t.Fatalf("the sweeper as %s: %v\n%s", managedSweeper, err, out)
	}
	var outcome string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var l struct {
			Msg         string `json:"msg"`
			NamespaceID int64  `json:"namespace_id"`
			Outcome     string `json:"outcome"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "namespace" && l.NamespaceID == old {
			outcome = l.Outcome
		}
	}
	if outcome != "deleted" {
		t.Fatalf("the sweeper's outcome for the due deletion %d: %q, want deleted:\n%s", old, outcome, out)
	}
	var live, snapshots int
	var status string
	if err := e.pool.QueryRow(e.ctx, `select (select count(*) from lifecycle.namespaces where id = $1),
		(select count(*) from lifecycle.deleted_namespaces where namespace_id = $1),
		(select status from lifecycle.transfer_requests where id = $2)`, old, pending.ID).Scan(&live, &snapshots, &status); err != nil {
		t.Fatal(err)
	}
	if live != 0 || snapshots != 1 || status != "expired" {
		t.Fatalf("after the sweep: namespace %d has %d rows and %d deletion snapshots, the pending request is %s; "+
			"want 0, 1, expired", old, live, snapshots, status)
	}
	e.caughtUp() // its marker is one more namespace_created

	// Every fact recorded exactly once: each history row has one audit row, and the other facts
	// are the ones the calls above made, each once.
	var history, audited, missing, duplicated int
	if err := e.pool.QueryRow(e.ctx, `
		with a as (select (details ->> 'state_update_id')::bigint as h, count(*) as n from lifecycle.audit_events
		            where details ? 'state_update_id' group by 1)
		select (select count(*) from lifecycle.namespace_state_updates),
		       (select coalesce(sum(n), 0) from a),
		       (select count(*) from lifecycle.namespace_state_updates s where not exists (select from a where a.h = s.id)),
		       (select count(*) from a where n > 1)`).Scan(&history, &audited, &missing, &duplicated); err != nil {
		t.Fatal(err)
	}
	if history == 0 || audited != history || missing != 0 || duplicated != 0 {
		t.Errorf("history %d, audit rows %d, history rows without an audit row %d, duplicated %d", history, audited, missing, duplicated)
	}
	others := map[string]int{}
	rows, err := e.pool.Query(e.ctx, `select action, count(*) from lifecycle.audit_events where not details ? 'state_update_id' group by 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var action string
		var n int
		if err := rows.Scan(&action, &n); err != nil {
			t.Fatal(err)
		}
		others[action] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"namespace_created":  len(created) + 1, // and caughtUp's marker
		"member_added":       2,
		"renamed":            1,
		"transfer_requested": 2, // inserted pending (transfer_requests_facts)
		"transfer_accepted":  1, // the one the organization's owner requested, accepted at once
		"transfer_completed": 1,
		"transfer_expired":   1,
		"hard_deleted":       1,
	}
	if fmt.Sprint(others) != fmt.Sprint(want) {
		t.Errorf("audit rows of facts other than state changes: %v, want %v", others, want)
	}
	var outbox int
	if err := owner.QueryRow(ctx, `select count(*) from lifecycle.facts`).Scan(&outbox); err != nil || outbox != 0 {
		t.Errorf("facts left in the outbox: %d (%v), want 0", outbox, err)
	}
	mu.Lock()
	if deliveries != 1 || verified != 1 {
		t.Errorf("webhook deliveries %d, with a signature that verifies %d; want 1 and 1", deliveries, verified)
	}
	mu.Unlock()

	// What the syncer's login reads. It needs no secret: the webhook secrets it signs with come
	// with the deliveries it leases (lifecycle.webhook_deliveries_claim, SECURITY DEFINER), and
	// lifecycle.fact_key, the key of the facts of before migration 035, is read by
	// lifecycle.fact_message_adopt (SECURITY DEFINER) when the syncer hands it such a message. The
	// schema owner reads both (which is why the syncer must not run as the owner).
	syncerConn := connect(managedSyncer, "nslifecycle")
	for _, q := range []string{`select key from lifecycle.fact_key`, `select count(*) from lifecycle.fact_key`,
		`select secret from lifecycle.webhooks`, `select * from lifecycle.webhooks`} {
		_, err := syncerConn.Exec(ctx, q)
		if pgErr := (*pgconn.PgError)(nil); !errors.As(err, &pgErr) || pgErr.Code != "42501" {
			t.Errorf("%s as %s: %v, want 42501", q, managedSyncer, err)
		}
		if _, err := owner.Exec(ctx, q); err != nil {
			t.Errorf("%s as the owner: %v", q, err)
		}
	}
	// No column of the schema the syncer's login can read is named like a secret, but the
	// idempotency keys (a fact's name: fact/<id>) and events.target_key (the name of a metadata
	// field a rule reads).
	var readable []string
	if err := owner.QueryRow(ctx, `select coalesce(array_agg(c.relname || '.' || a.attname order by c.relname, a.attname), '{}')
		from pg_class c join pg_attribute a on a.attrelid = c.oid
		where c.relnamespace = 'lifecycle'::regnamespace and c.relkind in ('r', 'v', 'm', 'p') and a.attnum > 0 and not a.attisdropped
		  and a.attname ~ '(secret|password|passwd|token|key|mac|salt|credential)'
		  and has_column_privilege($1, c.oid, a.attnum, 'select')`, managedSyncer).Scan(&readable); err != nil {
		t.Fatal(err)
	}
	if want := []string{"audit_events.idempotency_key", "events.target_key", "webhook_deliveries.idempotency_key"}; !slices.Equal(readable, want) {
		t.Errorf("columns named like a secret %s can read: %v, want only %v", managedSyncer, readable, want)
	}

	// No superuser anywhere: not the owner, not a login, not the roles the migrations made; the
	// schema, its objects but the bridges' writers, the extension and the publication are the owner's.
	var supers []string
	if err := owner.QueryRow(ctx, `select coalesce(array_agg(rolname order by rolname) filter (where rolsuper or (rolreplication and rolname <> $4)), '{}')
		from pg_roles where rolname in ($1, $2, $3, $4, 'lifecycle_app', 'lifecycle_worker', 'lifecycle_bridge')`,
		managedOwner, managedApp, managedSweeper, managedSyncer).Scan(&supers); err != nil {
		t.Fatal(err)
	}
	if len(supers) != 0 {
		t.Errorf("superusers or replication roles among the roles of the test: %v (only %s has REPLICATION)", supers, managedSyncer)
	}
	var notOwned []string
	if err := owner.QueryRow(ctx, `select coalesce(array_agg(what order by what), '{}') from (
		select 'schema ' || nspname as what from pg_namespace where nspname in ('lifecycle', 'lifecycle_pgcrypto') and nspowner <> current_user::regrole
		union all select 'relation ' || relname from pg_class where relnamespace = 'lifecycle'::regnamespace and relowner <> current_user::regrole
		union all select 'function ' || proname || ' (' || proowner::regrole::text || ')' from pg_proc
		 where pronamespace = 'lifecycle'::regnamespace and proowner <> current_user::regrole
		union all select 'extension ' || extname from pg_extension where extname = 'pgcrypto' and extowner <> current_user::regrole
		union all select 'publication ' || pubname from pg_publication where pubowner <> current_user::regrole
		union all select 'database ' || datname from pg_database where datname = current_database() and datdba <> current_user::regrole) o`).
		Scan(&notOwned); err != nil {
		t.Fatal(err)
	}
	// The bridges' writers belong to lifecycle_bridge (sql/roles.sql says why), which the owner made.
	writers := []string{"function legacy_bridge_write (lifecycle_bridge)", "function legacy_members_write (lifecycle_bridge)",
		"function legacy_rows_delete (lifecycle_bridge)", "function legacy_tree_write (lifecycle_bridge)"}
	if !slices.Equal(notOwned, writers) {
		t.Errorf("objects %s does not own: %v, want only %v", managedOwner, notOwned, writers)
	}
	var publications int
	if err := owner.QueryRow(ctx, `select count(*) from pg_publication`).Scan(&publications); err != nil || publications != 1 {
		t.Errorf("publications: %d (%v), want the syncer's one", publications, err)
	}

	// The sessions the server saw since log_connections went on: the four logins' only, the
	// syncer's replication session among them.
	e.kill()
	sessions := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)\b((?:replication )?connection) authorized: user=(\S+)`).FindAllStringSubmatch(c.ServerLog(), -1) {
		sessions[m[1]+" "+m[2]] = true
	}
	var got []string
	for s := range sessions {
		got = append(got, s)
	}
	slices.Sort(got)
	if wantSessions := []string{"connection " + managedApp, "connection " + managedOwner, "connection " + managedSweeper,
		"connection " + managedSyncer, "replication connection " + managedSyncer}; !slices.Equal(got, wantSessions) {
		t.Errorf("sessions the server authorized (role and kind): %v, want %v", got, wantSessions)
	}
}
