package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

var binary string // the sweeper, built once for the tests that run it as a subprocess

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sweeper-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "sweeper")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build the sweeper: %v\n%s", err, out)
		os.Exit(2)
	}
	code := dbtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// logLine is one JSON log line of the sweeper.
type logLine struct {
	Msg               string `json:"msg"`
	NamespaceID       int64  `json:"namespace_id"`
	Action            string `json:"action"`
	Outcome           string `json:"outcome"`
	Reason            string `json:"reason"`
	DeletedNamespaces int64  `json:"deleted_namespaces"`
	WouldDelete       int64  `json:"would_delete_namespaces"`
}

// sweep runs the binary against the test database and returns its exit code and log lines.
func sweep(t *testing.T, ctx context.Context, args ...string) (int, []logLine, string) {
	t.Helper()
	return sweepOn(t, ctx, dbtest.URL(t), args...)
}

// sweepOn runs the binary against the database at url.
func sweepOn(t *testing.T, ctx context.Context, url string, args ...string) (int, []logLine, string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, binary, append([]string{"-log-format", "json"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dieWithParent(cmd)
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, parseLog(t, stderr.String()), stderr.String()
}

func parseLog(t *testing.T, s string) []logLine {
	t.Helper()
	var lines []logLine
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		var l logLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("a log line that is not JSON: %q", sc.Text())
		}
		lines = append(lines, l)
	}
	return lines
}

func outcomes(lines []logLine) map[int64][]string {
	m := map[int64][]string{}
	for _, l := range lines {
		if l.Msg == "namespace" {
			m[l.NamespaceID] = append(m[l.NamespaceID], l.Outcome)
		}
	}
	return m
}

type fixture struct {
	t    *testing.T
	ctx  context.Context
	pool *pgxpool.Pool
	q    *db.Queries
	lc   *nslifecycle.Client
	org  int64
}

func newFixture(t *testing.T) *fixture {
	ctx := context.Background()
	pool := dbtest.Pool(t)
	f := &fixture{t: t, ctx: ctx, pool: pool, q: db.New(pool), lc: nslifecycle.NewClient(pool)}
	f.org = f.insert(nil, "organization", "sweep-"+suffix())
	return f
}

func suffix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (f *fixture) insert(parent *int64, typ, path string) int64 {
	f.t.Helper()
	ns, err := f.q.NamespaceInsert(f.ctx, db.NamespaceInsertParams{ParentID: parent, Type: typ, Path: path, Name: path})
	if err != nil {
		f.t.Fatal(err)
	}
	return ns.ID
}

func (f *fixture) member(ns, user int64, level int16) {
	f.t.Helper()
	if _, err := f.q.MemberUpsert(f.ctx, db.MemberUpsertParams{NamespaceID: ns, UserID: user, AccessLevel: level}); err != nil {
		f.t.Fatal(err)
	}
}

// schedule schedules a deletion by actor and backdates it by age, as if scheduled that long ago.
func (f *fixture) schedule(ns int64, actor *int64, age time.Duration) {
	f.t.Helper()
	if _, err := f.lc.Event(f.ctx, ns, "schedule_deletion", actor, nil); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.pool.Exec(f.ctx, `update lifecycle.namespaces set deletion_scheduled_at = now() - $2::interval where id = $1`,
		ns, fmt.Sprintf("%d seconds", int(age.Seconds()))); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) state(ns int64) (state string, exists bool) {
	f.t.Helper()
	err := f.pool.QueryRow(f.ctx, `select lifecycle.state_name(state) from lifecycle.namespaces where id = $1`, ns).Scan(&state)
	if err != nil {
		return "", false
	}
	return state, true
}

func (f *fixture) lastError(ns int64) string {
	f.t.Helper()
	var s *string
	if err := f.pool.QueryRow(f.ctx, `select state_metadata ->> 'last_error' from lifecycle.namespace_details where namespace_id = $1`,
		ns).Scan(&s); err != nil {
		f.t.Fatal(err)
	}
	if s == nil {
		return ""
	}
	return *s
}

func ptr[T any](v T) *T { return &v }

const week = 7 * 24 * time.Hour

// The scheduler's permission is re-checked at deletion time (seed 004): still an owner (directly,
// or only through an ancestor) → deleted, with the snapshot kept; ownership taken away, or the
// membership gone → restored with last_error saying why.
func TestSweeperRechecksTheSchedulersPermission(t *testing.T) {
	f := newFixture(t)
	const stillOwner, demoted, inheritedOwner, gone = int64(9001), int64(9002), int64(9003), int64(9004)
	f.member(f.org, inheritedOwner, 50)
	keep := f.insert(&f.org, "group", "keep")
	f.member(keep, stillOwner, 50)
	demote := f.insert(&f.org, "group", "demote")
	f.member(demote, demoted, 50)
	inherited := f.insert(&f.org, "group", "inherited")
	f.insert(&inherited, "project", "child")
	left := f.insert(&f.org, "group", "left")
	f.member(left, gone, 50)

	f.schedule(keep, ptr(stillOwner), week+time.Hour)
	f.schedule(demote, ptr(demoted), week+time.Hour)
	f.schedule(inherited, ptr(inheritedOwner), week+time.Hour)
	f.schedule(left, ptr(gone), week+time.Hour)
	f.member(demote, demoted, 30)
	if err := f.q.MemberDelete(f.ctx, db.MemberDeleteParams{NamespaceID: left, UserID: gone}); err != nil {
		t.Fatal(err)
	}

	code, lines, out := sweep(t, f.ctx)
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	got := outcomes(lines)
	for ns, want := range map[int64]string{keep: "deleted", inherited: "deleted", demote: "restored", left: "restored"} {
		if len(got[ns]) != 1 || got[ns][0] != want {
			t.Errorf("namespace %d: outcomes %v, want [%s]", ns, got[ns], want)
		}
	}
	for _, ns := range []int64{keep, inherited} {
		if _, exists := f.state(ns); exists {
			t.Errorf("namespace %d still exists after its deletion", ns)
		}
		var count int64
		if err := f.pool.QueryRow(f.ctx, `select descendant_count from lifecycle.deleted_namespaces where namespace_id = $1`, ns).Scan(&count); err != nil {
			t.Errorf("namespace %d: no deletion snapshot: %v", ns, err)
		}
	}
	for ns, user := range map[int64]int64{demote: demoted, left: gone} {
		if s, _ := f.state(ns); s != "ancestor_inherited" {
			t.Errorf("namespace %d: state %s after the restore, want ancestor_inherited", ns, s)
		}
		if e := f.lastError(ns); !strings.Contains(e, fmt.Sprintf("scheduled by user %d not carried out", user)) {
			t.Errorf("namespace %d: last_error %q does not say why", ns, e)
		}
	}
	// The audit facts: one history row per decision, made by the system, saying why.
	for ns, want := range map[int64]string{keep: "deletion_start", inherited: "deletion_start", demote: "restore", left: "restore"} {
		var event string
		var actor *int64
		var lastErr *string
		err := f.pool.QueryRow(f.ctx, `select event, actor_id, metadata ->> 'last_error' from lifecycle.namespace_state_updates
			where namespace_id = $1 order by id desc limit 1`, ns).Scan(&event, &actor, &lastErr)
		if err != nil {
			t.Fatal(err)
		}
		if event != want || actor != nil || (want == "restore") != (lastErr != nil) {
			t.Errorf("namespace %d: last history row %s by %v (last_error %v), want %s by the system, with last_error on restores",
				ns, event, actor, lastErr, want)
		}
	}
}

// Two sweepers started together over 300 due deletions: every namespace is handled by exactly one.
func TestTwoSweepersProcessEachNamespaceExactlyOnce(t *testing.T) {
	f := newFixture(t)
	const owner = int64(9100)
	f.member(f.org, owner, 50)
	var ids []int64
	for i := 0; i < 300; i++ {
		ids = append(ids, f.insert(&f.org, "project", fmt.Sprintf("p%d", i)))
	}
	for _, id := range ids {
		if _, err := f.lc.Event(f.ctx, id, "schedule_deletion", ptr(owner), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.pool.Exec(f.ctx, `update lifecycle.namespaces set deletion_scheduled_at = now() - interval '8 days'
		where id = any($1)`, ids); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var all []logLine
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, lines, out := sweep(t, f.ctx, "-batch-size", "50")
			if code != 0 {
				t.Errorf("a sweeper exited %d:\n%s", code, lastLines(out, 15))
			}
			mu.Lock()
			all = append(all, lines...)
			mu.Unlock()
		}()
	}
	wg.Wait()

	processed := map[int64]int{}
	for _, l := range all {
		if l.Msg == "namespace" && (l.Outcome == "deleted" || l.Outcome == "restored") {
			processed[l.NamespaceID]++
		}
	}
	for _, id := range ids {
		if processed[id] != 1 {
			t.Errorf("namespace %d processed %d times, want exactly once", id, processed[id])
		}
		if _, exists := f.state(id); exists {
			t.Errorf("namespace %d still exists", id)
		}
	}
}

// A sweeper killed in the middle of a hard delete leaves a deletion in progress; the next run
// resumes it and finishes: nothing half-deleted, nothing stuck.
func TestASweeperKilledMidDeleteIsFinishedByTheNextRun(t *testing.T) {
	f := newFixture(t)
	root := f.insert(&f.org, "group", "big")
	if _, err := f.pool.Exec(f.ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select $1, 'group', 'g' || g, 'g' from generate_series(1, 40) g`, root); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(f.ctx, `insert into lifecycle.namespaces (parent_id, type, path, name)
		select s.id, 'project', 'p' || g, 'p' from lifecycle.namespaces s, generate_series(1, 49) g where s.parent_id = $1`, root); err != nil {
		t.Fatal(err)
	}
	const descendants = 40 + 40*49
	f.schedule(root, nil, week+time.Hour)

	cmd := exec.Command(binary, "-log-format", "json", "-hard-delete-batch", "10")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbtest.URL(t))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once some batches have committed and many remain.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var done *int64
		_ = f.pool.QueryRow(f.ctx, `select (state_metadata #>> '{progress,done}')::bigint from lifecycle.namespace_details
			where namespace_id = $1`, root).Scan(&done)
		if done != nil && *done >= 100 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the hard delete made no progress:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// Its backend may still be finishing the batch in hand, holding its claim (a sweep_claims row
	// naming its pid, and a session advisory lock) until it notices the client is gone; a rerun
	// before that rightly skips the namespace (claimed_elsewhere). So wait for the backend to end.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var held bool
		if err := f.pool.QueryRow(f.ctx, `select exists (select from pg_locks where locktype = 'advisory'
			and database = (select oid from pg_database where datname = current_database()) and pid <> pg_backend_pid())
			or exists (select from lifecycle.sweep_claims c join pg_stat_activity a on a.pid = c.pid)`).Scan(&held); err != nil {
			t.Fatal(err)
		}
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the killed sweeper's claim was still held after 30 s")
		}
	}
	if s, _ := f.state(root); s != "deletion_in_progress" {
		t.Fatalf("after the kill: root is %q, want deletion_in_progress", s)
	}

	code, lines, out := sweep(t, f.ctx, "-stuck-after", "0s")
	if code != 0 {
		t.Fatalf("rerun exit %d:\n%s", code, out)
	}
	if got := outcomes(lines)[root]; len(got) != 1 || got[0] != "deleted" {
		t.Fatalf("rerun outcomes for the root: %v, want [deleted]\n%s", got, out)
	}
	var left, count int64
	if err := f.pool.QueryRow(f.ctx, `select (select count(*) from lifecycle.namespaces where $1 = any(traversal_ids)),
		(select descendant_count from lifecycle.deleted_namespaces where namespace_id = $1)`, root).Scan(&left, &count); err != nil {
		t.Fatal(err)
	}
	if left != 0 || count != descendants {
		t.Fatalf("after the rerun: %d rows left, snapshot counts %d descendants; want 0 and %d", left, count, descendants)
	}
}

// A dry run changes nothing; a pretend time in the past selects nothing.
func TestDryRunAndPastNowChangeNothing(t *testing.T) {
	f := newFixture(t)
	const owner = int64(9200)
	f.member(f.org, owner, 50)
	due := f.insert(&f.org, "group", "due")
	f.schedule(due, ptr(owner), week+time.Hour)
	src := f.insert(&f.org, "group", "src")
	dst := f.insert(&f.org, "group", "dst")
	f.member(dst, 9201, 50)
	moving := f.insert(&src, "project", "app")
	// An accepted transfer (the organization's owner owns both sides), left unexecuted: stuck.
	if req, err := f.lc.RequestTransfer(f.ctx, moving, dst, ptr(owner)); err != nil || req.Status != "accepted" {
		t.Fatalf("request: %+v %v", req, err)
	}
	// A pending one (its requester owns only the source): due to expire.
	f.member(src, 9202, 50)
	other := f.insert(&src, "project", "other")
	pending, err := f.lc.RequestTransfer(f.ctx, other, dst, ptr(int64(9202)))
	if err != nil || pending.Status != "pending" {
		t.Fatalf("request: %+v %v", pending, err)
	}

	snapshot := func() string {
		var s string
		if err := f.pool.QueryRow(f.ctx, `select concat_ws('|',
			(select string_agg(id || ':' || state || ':' || coalesce(parent_id, 0), ',' order by id) from lifecycle.namespaces where $1 = any(traversal_ids)),
			(select string_agg(id || ':' || status, ',' order by id) from lifecycle.transfer_requests),
			(select count(*) from lifecycle.namespace_state_updates))`, f.org).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := snapshot()
	future := time.Now().Add(60 * 24 * time.Hour).UTC().Format(time.RFC3339)
	code, lines, out := sweep(t, f.ctx, "-dry-run", "-now", future, "-stuck-after", "0s")
	if code != 0 {
		t.Fatalf("dry run exit %d:\n%s", code, out)
	}
	if got := outcomes(lines)[due]; len(got) != 1 || got[0] != "dry_run" {
		t.Fatalf("dry run: outcomes for the due namespace %v, want [dry_run]\n%s", got, out)
	}
	if !strings.Contains(out, `"count":1`) {
		t.Errorf("dry run does not report the transfer request it would expire (%d):\n%s", pending.ID, out)
	}
	if after := snapshot(); after != before {
		t.Fatalf("the dry run changed the database:\nbefore %s\nafter  %s", before, after)
	}

	past := time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339)
	code, lines, out = sweep(t, f.ctx, "-now", past)
	if code != 0 {
		t.Fatalf("past run exit %d:\n%s", code, out)
	}
	if n := len(outcomes(lines)); n != 0 {
		t.Fatalf("a pretend time in the past selected %d namespaces:\n%s", n, out)
	}
	if after := snapshot(); after != before {
		t.Fatalf("the run in the past changed the database:\nbefore %s\nafter  %s", before, after)
	}
}

// A dry run reports what the real run then does, namespace by namespace, and counts the same
// namespaces deleted. A due deletion below another, older one is deleted with it: the real run
// finds it gone and skips it, so the dry run must too (it used to report it as a deletion of its
// own, its subtree counted twice). A due deletion above a younger one, deleted first on its own,
// deletes only what is left.
func TestDryRunReportsWhatTheRunDoes(t *testing.T) {
	ctx := context.Background()
	url, pool := dbtest.NewDatabasePool(t)
	f := &fixture{t: t, ctx: ctx, pool: pool, q: db.New(pool), lc: nslifecycle.NewClient(pool)}
	f.org = f.insert(nil, "organization", "dry")
	const owner = int64(9300)
	f.member(f.org, owner, 50)
	// Parent older: outer (3 weeks) holds inner (2 weeks, scheduled first: a namespace below a
	// scheduled one cannot be scheduled) and a project that is not scheduled.
	outer := f.insert(&f.org, "group", "outer")
	inner := f.insert(&outer, "project", "inner")
	f.insert(&outer, "project", "bystander")
	f.schedule(inner, ptr(owner), 2*week)
	f.schedule(outer, ptr(owner), 3*week)
	// Child older: low (3 weeks) below high (2 weeks), high with one more project.
	high := f.insert(&f.org, "group", "high")
	low := f.insert(&high, "project", "low")
	f.insert(&high, "project", "other")
	f.schedule(low, ptr(owner), 3*week)
	f.schedule(high, ptr(owner), 2*week)
	var before int64
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&before); err != nil {
		t.Fatal(err)
	}

	report := func(lines []logLine) (map[int64]string, int64, int64) {
		m := map[int64]string{}
		var deleted, wouldDelete int64
		for _, l := range lines {
			if l.Msg != "namespace" {
				continue
			}
			m[l.NamespaceID] += l.Outcome + " "
			deleted += l.DeletedNamespaces
			wouldDelete += l.WouldDelete
		}
		return m, deleted, wouldDelete
	}
	code, lines, dryOut := sweepOn(t, ctx, url, "-dry-run")
	if code != 0 {
		t.Fatalf("dry run exit %d:\n%s", code, dryOut)
	}
	dry, _, wouldDelete := report(lines)
	code, lines, out := sweepOn(t, ctx, url)
	if code != 0 {
		t.Fatalf("run exit %d:\n%s", code, out)
	}
	done, deleted, _ := report(lines)
	var after int64
	if err := pool.QueryRow(ctx, `select count(*) from lifecycle.namespaces`).Scan(&after); err != nil {
		t.Fatal(err)
	}

	want := map[int64]string{outer: "deleted ", inner: "skipped ", low: "deleted ", high: "deleted "}
	for ns, w := range want {
		if done[ns] != w {
			t.Errorf("run: namespace %d outcomes %q, want %q\n%s", ns, done[ns], w, out)
		}
		if d := strings.ReplaceAll(w, "deleted", "dry_run"); dry[ns] != d {
			t.Errorf("dry run: namespace %d outcomes %q, want %q (the run's %q)\n%s", ns, dry[ns], d, done[ns], dryOut)
		}
	}
	if len(done) != len(want) || len(dry) != len(want) {
		t.Errorf("namespaces reported: run %v, dry run %v; want %v", done, dry, want)
	}
	if before-after != 6 || deleted != 6 || wouldDelete != 6 {
		t.Errorf("namespaces removed %d, the run says %d deleted, the dry run %d would be; want 6 each\ndry run:\n%s\nrun:\n%s",
			before-after, deleted, wouldDelete, dryOut, out)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Bad flags and an unreachable database exit 2.
func TestSweeperExitsTwoWhenItCannotRun(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{{"-now", "yesterday"}, {"-batch-size", "0"}, {"-log-format", "xml"}, {"-no-such-flag"}} {
		cmd := exec.CommandContext(ctx, binary, args...)
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dbtest.URL(t))
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 2 {
			t.Errorf("%v: exit %d, want 2:\n%s", args, code, out)
		}
	}
	cmd := exec.Command(binary)
	cmd.Env = append(os.Environ(), "DATABASE_URL=postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Fatalf("unreachable database: %v, want exit 2", err)
	}
}

// A claim the sweeper cannot make (here: sweep_claim's EXECUTE taken from lifecycle_worker; under a
// schema owner that is no superuser, every claim before migration 038) is a failure of the run,
// exit 1 and the namespace's outcome failed, not a claim held elsewhere with exit 0, which hid that
// the sweeper did nothing.
func TestAClaimThatCannotBeMadeFailsTheRun(t *testing.T) {
	ctx := context.Background()
	url, pool := dbtest.NewDatabasePool(t)
	f := &fixture{t: t, ctx: ctx, pool: pool, q: db.New(pool), lc: nslifecycle.NewClient(pool)}
	f.org = f.insert(nil, "organization", "claims")
	const owner = int64(9300)
	f.member(f.org, owner, 50)
	due := f.insert(&f.org, "group", "due")
	f.schedule(due, ptr(owner), week+time.Hour)
	if _, err := pool.Exec(ctx, `revoke execute on function lifecycle.sweep_claim(bigint) from lifecycle_worker`); err != nil {
		t.Fatal(err)
	}
	code, lines, out := sweepOn(t, ctx, dbtest.LoginAs(t, url, "lifecycle_worker"))
	if got := outcomes(lines)[due]; code != 1 || len(got) != 1 || got[0] != "failed" || !strings.Contains(out, "42501") {
		t.Fatalf("exit %d, outcomes %v for the due namespace; want exit 1, [failed], and the error (42501):\n%s", code, got, out)
	}
	if s, _ := f.state(due); s != "deletion_scheduled" {
		t.Fatalf("the namespace is %s, want it still deletion_scheduled", s)
	}
}
