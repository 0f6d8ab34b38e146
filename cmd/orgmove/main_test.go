package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dberr"
	"github.com/nslifecycle/nslifecycle/internal/testtools"
)

var binary string // cmd/orgmove, built once: the tests run it as a user does

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "orgmove-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "orgmove")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build orgmove: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cell is one private cluster running the product: its database as the superuser, and logins of
// the application and worker roles, as a user's application and operator connect.
type cell struct {
	cluster          *testtools.Cluster
	super, app, work string
}

// newCell starts a cluster, migrates a database on it and gives it the id range first..last
// (as the worker, the way an operator sets it).
func newCell(t testing.TB, name string, first, last int64) *cell {
	t.Helper()
	c := &cell{cluster: testtools.NewCluster(t)}
	c.super = c.cluster.CreateDatabase(t, name)
	c.app = login(t, c.super, "lifecycle_app")
	c.work = login(t, c.super, "lifecycle_worker")
	ctx := context.Background()
	conn := connect(t, c.work)
	next, err := db.New(conn).IdRangeSet(ctx, db.IdRangeSetParams{FirstID: first, LastID: last})
	if err != nil {
		t.Fatalf("%s: id_range_set: %v", name, err)
	}
	for _, s := range next {
		if *s.NextID < first || *s.NextID > last {
			t.Fatalf("%s: %s hands out %d next, outside %d..%d", name, *s.SequenceName, *s.NextID, first, last)
		}
	}
	return c
}

// login makes a login role in group on the cluster of superURL and returns the URL as it.
func login(t testing.TB, superURL, group string) string {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	role := strings.TrimPrefix(group, "lifecycle_") + "_" + hex.EncodeToString(b)
	exec1(t, superURL, fmt.Sprintf("create role %s login in role %s", pgx.Identifier{role}.Sanitize(), pgx.Identifier{group}.Sanitize()))
	u, err := url.Parse(superURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	return u.String()
}

func connect(t testing.TB, u string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// exec1 runs statements on a connection of its own.
func exec1(t testing.TB, u, sql string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func id(t *testing.T, conn *pgx.Conn, fullPath string) int64 {
	t.Helper()
	var n int64
	if err := conn.QueryRow(context.Background(), "select namespace_id from lifecycle.namespace_resolve($1)", fullPath).Scan(&n); err != nil {
		t.Fatalf("resolve %s: %v", fullPath, err)
	}
	return n
}

// code is the SQLSTATE of err, or "" when it is not the server's answer.
func code(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code
	}
	return ""
}

// runOrgmove runs the command (with -log-level debug) and returns its exit status and log.
func runOrgmove(t testing.TB, ctx context.Context, out *syncBuffer, args ...string) int {
	t.Helper()
	cmd := exec.CommandContext(ctx, binary, append([]string{"-log-level", "debug"}, args...)...)
	cmd.Stderr = out
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
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

// eventually polls cond until it holds (no timing assertion: it waits for a condition).
func eventually(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// orgRows is every row of an organization the move carries, as JSON, per kind and in id order:
// what the source held before must be what the target holds after.
func orgRows(t *testing.T, superURL string, org int64) map[string][]string {
	t.Helper()
	conn := connect(t, superURL)
	out := map[string][]string{}
	for kind, q := range map[string]string{
		"namespace":        `select to_jsonb(n)::text from lifecycle.namespaces n where n.traversal_ids[1] = $1 order by n.id`,
		"detail":           `select to_jsonb(d)::text from lifecycle.namespace_details d join lifecycle.namespaces n on n.id = d.namespace_id where n.traversal_ids[1] = $1 order by 1`,
		"history":          `select to_jsonb(u)::text from lifecycle.namespace_state_updates u join lifecycle.namespaces n on n.id = u.namespace_id where n.traversal_ids[1] = $1 order by u.id`,
		"redirect":         `select to_jsonb(r)::text from lifecycle.namespace_redirects r join lifecycle.namespaces n on n.id = r.namespace_id where n.traversal_ids[1] = $1 order by r.id`,
		"member":           `select to_jsonb(m)::text from lifecycle.namespace_members m join lifecycle.namespaces n on n.id = m.namespace_id where n.traversal_ids[1] = $1 order by 1`,
		"webhook":          `select to_jsonb(w)::text from lifecycle.webhooks w join lifecycle.namespaces n on n.id = w.namespace_id where n.traversal_ids[1] = $1 order by w.id`,
		"transfer_request": `select to_jsonb(r)::text from lifecycle.transfer_requests r join lifecycle.namespaces n on n.id = r.namespace_id where n.traversal_ids[1] = $1 order by r.id`,
	} {
		rows, err := conn.Query(context.Background(), q, org)
		if err != nil {
			t.Fatal(err)
		}
		list, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		out[kind] = list
	}
	return out
}

// checks is what a consistent cluster answers with nothing: lifecycle.check_invariants and
// lifecycle.effective_states_verify, as the worker. stale are namespaces the test changed with no
// syncer running, whose kept effective state is expected to lag.
func checks(t *testing.T, c *cell, name string, stale ...int64) {
	t.Helper()
	conn := connect(t, c.work)
	for _, q := range []string{"select namespace_id from lifecycle.check_invariants()",
		"select namespace_id from lifecycle.effective_states_verify() where namespace_id <> all ($1)"} {
		args := []any{}
		if strings.Contains(q, "$1") {
			args = append(args, append([]int64{}, stale...))
		}
		rows, err := conn.Query(context.Background(), q, args...)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil || len(ids) != 0 {
			t.Errorf("%s: %s: namespaces %v, %v; want none", name, q, ids, err)
		}
	}
}

// An organization moves between two private clusters with the real command, as a worker login on
// each: groups, subgroups and projects in several states (archived, scheduled for deletion, in
// maintenance, renamed with a redirect, transferred with its request, with members and a webhook)
// arrive with their ids and every row as it was; the target's invariants and effective states
// hold, its old paths resolve, the application writes there, and new ids come from its range.
// While the move runs, every write to the organization on the source is refused with NS011 (as
// the application role) and reads go on; afterwards the source serves nothing of it and its path
// is free.
func TestAnOrganizationMovesBetweenTwoClusters(t *testing.T) {
	ctx := context.Background()
	a := newCell(t, "cell_a", 1, 1_000_000_000_000)
	b := newCell(t, "cell_b", 1_000_000_000_001, 2_000_000_000_000)

	appA := connect(t, a.app)
	for _, s := range []string{
		`insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'acme', 'Acme')`,
		`insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'globex', 'Globex')`,
	} {
		if _, err := appA.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	acme, globex := id(t, appA, "acme"), id(t, appA, "globex")
	mk := func(parent int64, typ, path string) int64 {
		var n int64
		if err := appA.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, $2, $3, $3) returning id`,
			parent, typ, path).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	platform, infra, old, ops := mk(acme, "group", "platform"), mk(acme, "group", "infra"), mk(acme, "group", "old"), mk(acme, "group", "ops")
	dbs := mk(infra, "group", "db")
	api, site, tool := mk(platform, "project", "api"), mk(platform, "project", "site"), mk(platform, "project", "tool")
	mk(dbs, "project", "backups")
	mk(globex, "project", "www")
	const owner = 1000
	for _, s := range []string{
		fmt.Sprintf(`insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (%d, %d, 50), (%d, 1001, 30), (%d, 1002, 40), (%d, %d, 50)`,
			acme, owner, platform, dbs, globex, owner),
		fmt.Sprintf(`insert into lifecycle.webhooks (namespace_id, url, secret) values (%d, 'https://hooks.example.com/acme', 'a-secret-of-16-chars')`, acme),
		fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', %d)`, api, owner),
		fmt.Sprintf(`select lifecycle.namespace_rename(%d, 'web', %d)`, site, owner),
		fmt.Sprintf(`select lifecycle.namespace_event(%d, 'schedule_deletion', %d)`, old, owner),
		fmt.Sprintf(`select lifecycle.namespace_event(%d, 'maintain', %d, '{"reason": "upgrade"}')`, ops, owner),
		fmt.Sprintf(`select lifecycle.namespace_transfer_request(%d, %d, %d)`, tool, infra, owner),
		fmt.Sprintf(`select lifecycle.namespace_transfer_execute(%d)`, tool),
	} {
		if _, err := appA.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	web := id(t, appA, "acme/platform/web")
	appB := connect(t, b.app)
	if _, err := appB.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'initech', 'Initech')`); err != nil {
		t.Fatal(err)
	}
	// No syncer runs here: the kept effective states are made right once, so that what the move
	// writes (or fails to) is what the checks see.
	for _, c := range []*cell{a, b} {
		exec1(t, c.work, "select lifecycle.effective_states_refresh()")
	}
	before := orgRows(t, a.super, acme)
	if len(before["history"]) != 5 || len(before["redirect"]) != 2 || len(before["member"]) != 3 || len(before["transfer_request"]) != 1 {
		t.Fatalf("the organization is not what the test means to move: %v", before)
	}

	// The target's import waits behind a lock this test holds (the effective states' writer, step
	// 6 of the lock order, its last step), so the move is caught midway on both sides.
	blocker := connect(t, b.super)
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `select from lifecycle.lock_rows where name = 'effective_states' for update`); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	status := make(chan int, 1)
	go func() {
		status <- runOrgmove(t, ctx, &out, "-from", a.work, "-to", b.work, "-path", "acme", "-lock-timeout", "5m", "-batch-rows", "7",
			"-drain-timeout", "5m")
	}()

	eventually(t, "the source marks acme as moving", func() (bool, error) {
		var n int
		err := appA.QueryRow(ctx, `select count(*) from lifecycle.organization_moves where organization_id = $1 and direction = 'out' and finished_at is null`, acme).Scan(&n)
		return n == 1, err
	})
	for what, s := range map[string]string{
		"an event":            fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', %d)`, web, owner),
		"a transition":        fmt.Sprintf(`select lifecycle.namespace_transition(%d, 'archived', %d)`, acme, owner),
		"a rename":            fmt.Sprintf(`select lifecycle.namespace_rename(%d, 'www', %d)`, web, owner),
		"a creation":          fmt.Sprintf(`insert into lifecycle.namespaces (parent_id, type, path, name) values (%d, 'project', 'late', 'Late')`, platform),
		"a new member":        fmt.Sprintf(`insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (%d, 1003, 30)`, web),
		"a member removed":    fmt.Sprintf(`select lifecycle.namespace_member_remove(%d, 1001)`, platform),
		"a name":              fmt.Sprintf(`update lifecycle.namespaces set name = 'Late' where id = %d`, web),
		"a webhook":           fmt.Sprintf(`insert into lifecycle.webhooks (namespace_id, url, secret) values (%d, 'https://hooks.example.com/late', 'a-secret-of-16-chars')`, web),
		"a transfer request":  fmt.Sprintf(`select lifecycle.namespace_transfer_request(%d, %d, %d)`, web, infra, owner),
		"a visibility change": fmt.Sprintf(`select lifecycle.namespace_set_visibility(%d, 'private', %d)`, web, owner),
	} {
		if _, err := appA.Exec(ctx, s); code(err) != "NS011" || !errors.Is(dberr.FromDB(err), dberr.ErrOrganizationMoving) {
			t.Errorf("%s on the source during the move: %v, want NS011", what, err)
		}
	}
	if got := id(t, appA, "acme/platform/site"); got != web {
		t.Errorf("during the move the source resolves acme/platform/site to %d, want %d", got, web)
	}
	www := id(t, appA, "globex/www")
	if _, err := appA.Exec(ctx, fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', %d)`, www, owner)); err != nil {
		t.Errorf("another organization on the source during the move: %v", err)
	}
	// No syncer runs: the move waits for the source's backlog of acme (its facts, and the
	// deliveries to its webhook, which leaves with it), which the worker now records and
	// delivers as the syncer would.
	if !strings.Contains(out.String(), "waiting for the source's syncer") {
		eventually(t, "the move waits for the source's syncer", func() (bool, error) {
			return strings.Contains(out.String(), "waiting for the source's syncer"), nil
		})
	}
	workA := connect(t, a.work)
	if _, err := workA.Exec(ctx, `select lifecycle.facts_record_pending(100000)`); err != nil {
		t.Fatal(err)
	}
	var deliveries int
	if err := workA.QueryRow(ctx, `select count(lifecycle.webhook_delivery_result(d.delivery_id, 200, null, 5, interval '1 s'))
	      from lifecycle.webhook_deliveries_claim(1000, interval '1 minute') d`).Scan(&deliveries); err != nil || deliveries == 0 {
		t.Fatalf("delivering acme's webhook deliveries as the syncer would: %d, %v", deliveries, err)
	}
	eventually(t, "the target's import waits for the test's lock", func() (bool, error) {
		var n int
		err := blocker.QueryRow(ctx, `select count(*) from pg_stat_activity where application_name = 'orgmove' and wait_event_type = 'Lock'`).Scan(&n)
		return n == 1, err
	})
	var seen int
	if err := appB.QueryRow(ctx, `select count(*) from lifecycle.namespaces where path = 'acme'`).Scan(&seen); err != nil || seen != 0 {
		t.Errorf("before its commit the target shows acme %d times (%v), want 0", seen, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if s := <-status; s != 0 {
		t.Fatalf("orgmove exited %d, want 0\n%s", s, out.String())
	}
	t.Logf("orgmove:\n%s", out.String())
	if strings.Contains(out.String(), "has not caught up") {
		t.Errorf("the move went on before the source's syncer caught up")
	}

	// The target: the same rows, ids and all; consistent; served.
	after := orgRows(t, b.super, acme)
	for kind, rows := range before {
		if strings.Join(rows, "\n") != strings.Join(after[kind], "\n") {
			t.Errorf("%s rows on the target differ:\nsource before: %v\ntarget after:  %v", kind, rows, after[kind])
		}
	}
	checks(t, b, "target")
	if got := id(t, appB, "acme/platform/site"); got != web {
		t.Errorf("the target resolves acme/platform/site to %d, want %d (the rename's redirect)", got, web)
	}
	if got := id(t, appB, "acme/platform/tool"); got != tool {
		t.Errorf("the target resolves acme/platform/tool to %d, want %d (the transfer's redirect)", got, tool)
	}
	if _, err := appB.Exec(ctx, fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', %d)`, web, owner)); err != nil {
		t.Errorf("the owner's change on the target: %v", err)
	}
	var created int64
	if err := appB.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', 'late', 'Late') returning id`,
		platform).Scan(&created); err != nil || created <= 1_000_000_000_000 {
		t.Errorf("a creation in acme on the target: id %d, %v; want one of the target's range", created, err)
	}
	var facts string
	if err := connect(t, b.super).QueryRow(ctx, `select string_agg(action, ',' order by id) from lifecycle.facts f
	   where f.namespace_id in (select id from lifecycle.namespaces where traversal_ids[1] = $1) and action <> 'archived'
	     and f.namespace_id <> $2`, acme, created).Scan(&facts); err != nil || facts != "organization_moved_in" {
		t.Errorf("the target's facts of acme: %q, %v; want only organization_moved_in (nothing of it told as new)", facts, err)
	}

	// The source: nothing of it; its path free; where it went recorded.
	var left int
	superA := connect(t, a.super)
	if err := superA.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces where traversal_ids[1] = $1)
	      + (select count(*) from lifecycle.namespace_state_updates where namespace_id = any ($2))
	      + (select count(*) from lifecycle.namespace_members where namespace_id = any ($2))
	      + (select count(*) from lifecycle.effective_states where namespace_id = any ($2))`,
		acme, []int64{acme, platform, infra, old, ops, dbs, api, site, tool}).Scan(&left); err != nil || left != 0 {
		t.Errorf("the source keeps %d rows of acme (%v), want none", left, err)
	}
	var resolved int
	if err := appA.QueryRow(ctx, `select count(*) from lifecycle.namespace_resolve('acme/platform/site')`).Scan(&resolved); err != nil || resolved != 0 {
		t.Errorf("the source resolves acme/platform/site %d times (%v), want none", resolved, err)
	}
	var peer string
	if err := appA.QueryRow(ctx, `select peer from lifecycle.organization_moves where organization_id = $1 and direction = 'out' and finished_at is not null`,
		acme).Scan(&peer); err != nil || !strings.HasSuffix(peer, "/cell_b") {
		t.Errorf("the source's record of where acme went: %q, %v", peer, err)
	}
	if _, err := appA.Exec(ctx, fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', %d)`, web, owner)); code(err) != "NS004" {
		t.Errorf("a change of a moved namespace on the source: %v, want NS004", err)
	}
	checks(t, a, "source", www)
	if _, err := appA.Exec(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'acme', 'Another Acme')`); err != nil {
		t.Errorf("the path acme on the source after the move: %v, want free", err)
	}
}

// An organization whose id is taken on the target (clusters whose ranges overlapped) is refused
// with NS012 and exit status 1: nothing of it reaches the target, and the source serves it as
// before, writes included.
func TestAMoveWhoseIdsAreTakenOnTheTargetLeavesTheSourceServing(t *testing.T) {
	ctx := context.Background()
	a := newCell(t, "cell_a", 1, 1_000_000_000_000)
	b := newCell(t, "cell_b", 1_000_000_000_001, 2_000_000_000_000)
	appA := connect(t, a.app)
	var org, project int64
	if err := appA.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'umbrella', 'Umbrella') returning id`).Scan(&org); err != nil {
		t.Fatal(err)
	}
	if err := appA.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', 'labs', 'Labs') returning id`, org).Scan(&project); err != nil {
		t.Fatal(err)
	}
	exec1(t, a.app, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 1000, 50)`, org)
	// On the target, a namespace with the project's id (written as the superuser, as an import
	// from another range would).
	exec1(t, b.super, `insert into lifecycle.namespaces (id, parent_id, type, path, name) values ($1, null, 'organization', 'squatter', 'Squatter')`, project)
	for _, c := range []*cell{a, b} {
		exec1(t, c.work, "select lifecycle.effective_states_refresh()")
	}
	before := orgRows(t, a.super, org)

	var out syncBuffer
	if s := runOrgmove(t, ctx, &out, "-from", a.work, "-to", b.work, "-path", "umbrella", "-drain-timeout", "0"); s != 1 {
		t.Fatalf("orgmove exited %d, want 1\n%s", s, out.String())
	}
	if !strings.Contains(out.String(), "NS012") {
		t.Errorf("the log does not name NS012:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "has not caught up") || !strings.Contains(out.String(), "facts_waiting=") {
		t.Errorf("with no syncer and -drain-timeout 0, the log does not say what the source's syncer has yet to do:\n%s", out.String())
	}
	var marks, onTarget int
	if err := appA.QueryRow(ctx, `select count(*) from lifecycle.organization_moves`).Scan(&marks); err != nil || marks != 0 {
		t.Errorf("the source keeps %d marks (%v), want none", marks, err)
	}
	if err := connect(t, b.app).QueryRow(ctx, `select count(*) from lifecycle.namespaces where path in ('umbrella', 'labs')`).Scan(&onTarget); err != nil || onTarget != 0 {
		t.Errorf("the target holds %d of umbrella's namespaces (%v), want none", onTarget, err)
	}
	if after := orgRows(t, a.super, org); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the source's rows changed:\nbefore %v\nafter  %v", before, after)
	}
	if _, err := appA.Exec(ctx, fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', 1000)`, project)); err != nil {
		t.Errorf("a change on the source after the refused move: %v", err)
	}
	checks(t, a, "source", project)
	checks(t, b, "target")
}

// A run cannot take a move another live session holds (NS011, exit 1, the mark left alone); a
// move whose session ended after the target committed is finished by the next run (the target
// has it: the source's copy goes); one whose session ended before is taken over and moved by the
// next run, or cleared by -cancel.
func TestAMoveCutShortIsResumedOrCanceled(t *testing.T) {
	ctx := context.Background()
	a := newCell(t, "cell_a", 1, 1_000_000_000_000)
	b := newCell(t, "cell_b", 1_000_000_000_001, 2_000_000_000_000)
	appA := connect(t, a.app)
	orgs := map[string]int64{}
	for _, path := range []string{"hooli", "pied", "raviga"} {
		var n int64
		if err := appA.QueryRow(ctx, `insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', $1, $1) returning id`, path).Scan(&n); err != nil {
			t.Fatal(err)
		}
		exec1(t, a.app, `insert into lifecycle.namespaces (parent_id, type, path, name) values ($1, 'project', 'app', 'App')`, n)
		orgs[path] = n
	}
	for _, c := range []*cell{a, b} {
		exec1(t, c.work, "select lifecycle.effective_states_refresh()")
	}
	bLabel := "cell_b"

	// A run that died after the target's commit: its session started the move, exported, and the
	// target committed; then it went.
	first, err := pgx.Connect(ctx, a.work)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.New(first).OrganizationMoveOutStart(ctx, db.OrganizationMoveOutStartParams{Path: "hooli", Peer: bLabel}); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	if s := runOrgmove(t, ctx, &out, "-from", a.work, "-to", b.work, "-path", "hooli", "-drain-timeout", "0"); s != 1 || !strings.Contains(out.String(), "NS011") {
		t.Fatalf("orgmove while another session holds the move exited %d, want 1 naming NS011\n%s", s, out.String())
	}
	var marked int
	if err := appA.QueryRow(ctx, `select count(*) from lifecycle.organization_moves where organization_id = $1 and finished_at is null`, orgs["hooli"]).Scan(&marked); err != nil || marked != 1 {
		t.Fatalf("the refused run touched the other session's mark: %d marks, %v", marked, err)
	}
	rows, err := first.Query(ctx, `select kind, data from lifecycle.organization_export($1)`, orgs["hooli"])
	if err != nil {
		t.Fatal(err)
	}
	var staged []db.OrganizationImportsCopyParams
	for rows.Next() {
		p := db.OrganizationImportsCopyParams{OrganizationID: orgs["hooli"]}
		if err := rows.Scan(&p.Kind, &p.Data); err != nil {
			t.Fatal(err)
		}
		staged = append(staged, p)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	workB := connect(t, b.work)
	tx, err := workB.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.New(tx).OrganizationImportsCopy(ctx, staged); err != nil {
		t.Fatal(err)
	}
	if _, err := db.New(tx).OrganizationMoveIn(ctx, db.OrganizationMoveInParams{OrganizationID: orgs["hooli"], Peer: "cell_a"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var pid int
	if err := first.QueryRow(ctx, "select pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	first.Close(ctx)
	superA := connect(t, a.super)
	eventually(t, "the first session is gone", func() (bool, error) {
		var n int
		err := superA.QueryRow(ctx, "select count(*) from pg_stat_activity where pid = $1", pid).Scan(&n)
		return n == 0, err
	})
	out = syncBuffer{}
	if s := runOrgmove(t, ctx, &out, "-from", a.work, "-to", b.work, "-path", "hooli", "-drain-timeout", "0"); s != 0 || !strings.Contains(out.String(), "the target has the organization already") {
		t.Fatalf("orgmove resuming exited %d, want 0 having found hooli on the target\n%s", s, out.String())
	}
	var left int
	if err := appA.QueryRow(ctx, `select count(*) from lifecycle.namespaces where traversal_ids[1] = $1`, orgs["hooli"]).Scan(&left); err != nil || left != 0 {
		t.Errorf("the resumed move left %d namespaces of hooli on the source (%v)", left, err)
	}

	// A run that died before the target committed: the next run takes the move over and moves it.
	ravigaApp := id(t, appA, "raviga/app")
	third, err := pgx.Connect(ctx, a.work)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.New(third).OrganizationMoveOutStart(ctx, db.OrganizationMoveOutStartParams{Path: "raviga", Peer: bLabel}); err != nil {
		t.Fatal(err)
	}
	if err := third.QueryRow(ctx, "select pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	third.Close(ctx)
	eventually(t, "the third session is gone", func() (bool, error) {
		var n int
		err := superA.QueryRow(ctx, "select count(*) from pg_stat_activity where pid = $1", pid).Scan(&n)
		return n == 0, err
	})
	out = syncBuffer{}
	if s := runOrgmove(t, ctx, &out, "-from", a.work, "-to", b.work, "-path", "raviga", "-drain-timeout", "0"); s != 0 ||
		!strings.Contains(out.String(), "resumed=true") {
		t.Fatalf("orgmove taking over a move cut short before the target's commit exited %d, want 0 having resumed it\n%s", s, out.String())
	}
	if got := id(t, connect(t, b.app), "raviga/app"); got != ravigaApp {
		t.Errorf("raviga/app on the target is %d, want %d", got, ravigaApp)
	}
	if err := appA.QueryRow(ctx, `select count(*) from lifecycle.namespaces where traversal_ids[1] = $1`, orgs["raviga"]).Scan(&left); err != nil || left != 0 {
		t.Errorf("the move taken over left %d namespaces of raviga on the source (%v)", left, err)
	}

	// A run that died before the target committed: -cancel clears its mark.
	second, err := pgx.Connect(ctx, a.work)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.New(second).OrganizationMoveOutStart(ctx, db.OrganizationMoveOutStartParams{Path: "pied", Peer: bLabel}); err != nil {
		t.Fatal(err)
	}
	if err := second.QueryRow(ctx, "select pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	second.Close(ctx)
	eventually(t, "the second session is gone", func() (bool, error) {
		var n int
		err := superA.QueryRow(ctx, "select count(*) from pg_stat_activity where pid = $1", pid).Scan(&n)
		return n == 0, err
	})
	app := id(t, appA, "pied/app")
	if _, err := appA.Exec(ctx, fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', null)`, app)); code(err) != "NS011" {
		t.Fatalf("a change of pied while marked: %v, want NS011", err)
	}
	out = syncBuffer{}
	if s := runOrgmove(t, ctx, &out, "-from", a.work, "-to", b.work, "-path", "pied", "-cancel"); s != 0 {
		t.Fatalf("orgmove -cancel exited %d, want 0\n%s", s, out.String())
	}
	exec1(t, a.super, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values ($1, 1000, 50)`, orgs["pied"])
	if _, err := appA.Exec(ctx, fmt.Sprintf(`select lifecycle.namespace_event(%d, 'archive', 1000)`, app)); err != nil {
		t.Errorf("a change of pied after -cancel: %v", err)
	}
	checks(t, a, "source", app)
	checks(t, b, "target")
}
