package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// A GitLab population in schema gitlab (GitLab's own tables, gitlab/structure.sql): 60 groups
// nested six deep below 10 top-level ones, 40 user namespaces, 400 projects below both (every
// tenth archived, every tenth marked for deletion, every tenth archived, marked and
// pending_delete), a scheduled group, an archived group, a group with no settings row, a user
// ACME beside a group acme and projects Docs and docs in one group (case-only legacy siblings).
const population = `
insert into gitlab.namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at)
select g, 'Group ' || g, 'g' || g, case when g > 10 then g - 10 end, 'Group', 0, 1, '2020-01-01'::timestamp + g * interval '1 hour'
  from generate_series(1, 60) g
union all
select u, 'User ' || u, 'user' || u, null, 'User', 0, 1, '2020-02-01' from generate_series(101, 140) u
union all
values (200, 'Acme', 'acme', null::bigint, 'Group', 0, 1, '2020-03-01'::timestamp),
       (201, 'ACME', 'ACME', null, 'User', 0, 1, '2020-03-02');
insert into gitlab.namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at)
select p, 'Project ' || p, 'p' || p, case when p % 2 = 0 then 1 + p % 60 else 101 + p % 40 end, 'Project', 0, 1, '2021-01-01'
  from generate_series(1001, 1400) p
union all
values (1401, 'Docs', 'Docs', 1::bigint, 'Project', 0, 1, '2021-02-01'::timestamp), (1402, 'docs', 'docs', 1, 'Project', 0, 1, '2021-02-02');
insert into gitlab.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, archived,
                             marked_for_deletion_at, marked_for_deletion_by_user_id, pending_delete, organization_id, created_at)
select n.id + 10000, n.name, n.path, n.parent_id, n.id, 0, n.id % 10 in (1, 3) and n.id <= 1400,
       case when n.id % 10 in (2, 3) and n.id <= 1400 then current_date - 2 end,
       case when n.id % 10 in (2, 3) and n.id <= 1400 then 7 end,
       case when n.id > 1400 then false when n.id % 10 = 3 then true when n.id % 10 = 4 then null else false end, 1, n.created_at
  from gitlab.namespaces n where n.type = 'Project';
insert into gitlab.namespace_settings (namespace_id, archived, created_at, updated_at)
select id, id = 56, now(), now() from gitlab.namespaces where type in ('Group', 'User') and id <> 57;
insert into gitlab.group_deletion_schedules (group_id, user_id, marked_for_deletion_on) values (55, 7, current_date - 3);
insert into gitlab.members (id, access_level, source_id, source_type, user_id, notification_level, type, created_at,
                            invite_token, requested_at, member_namespace_id) values
  (1, 50, 1, 'Namespace', 42, 3, 'GroupMember', '2020-01-01', null, null, 1),          -- owner of g1
  (2, 30, 11010, 'Project', 50, 3, 'ProjectMember', '2021-01-01', null, null, 1010),   -- developer of p1010
  (3, 20, 1, 'Namespace', 50, 3, 'GroupMember', '2021-01-01', null, null, 1),          -- reporter of g1
  (4, 30, 2, 'Namespace', 51, 3, 'GroupMember', null, null, now(), 2),                 -- an access request
  (5, 30, 3, 'Namespace', null, 3, 'GroupMember', null, 'token5', null, 3),            -- an invitation by email
  (6, 30, 3, 'Namespace', 52, 3, 'GroupMember', null, 'token6', null, 3),              -- an invitation not accepted yet
  (7, 5, 4, 'Namespace', 53, 3, 'GroupMember', null, null, null, 4),                   -- minimal access: no such level
  (8, 30, 99999, 'Namespace', 54, 3, 'GroupMember', null, null, null, 99999);          -- a namespace GitLab no longer has
`

// What the population holds, each a count the adoption must reproduce.
const (
	wantGroups   = 61
	wantUsers    = 41
	wantProjects = 402
)

func adoptRun(t *testing.T, dbURL string, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, dbURL, &stdout, &stderr)
	t.Logf("adopt %s: exit %d\n%s\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	return code, stdout.String() + stderr.String()
}

// cmd/adopt -preset gitlab adopts a GitLab database as its owner: the bridges, the import (in
// committed batches, with progress, taking over rows a stopped run left staged), the backfill and
// the checks; exit 0 with every namespace imported and both checks empty. GitLab's role's own
// statements then go through the bridges, and a second run changes nothing.
func TestAdoptGitLabPreset(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	owner, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	if err := adopt.LoadGitLabStructure(ctx, owner, "gitlab"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Exec(ctx, population); err != nil {
		t.Fatal(err)
	}
	// A run that stopped after staging left the top-level groups staged, g2 as it was then (its
	// path since changed, and rejected): they are staged again as they are now, not twice.
	if _, err := owner.Exec(ctx, `insert into lifecycle.namespace_imports (id, parent_id, type, path, name, visibility, created_at,
		reject_code, reject_reason)
		select id, null, 'group', case id when 2 then 'stale' else path end, name, 'private', created_at,
		       case id when 2 then 'NS006' end, case id when 2 then 'taken' end
		  from gitlab.namespaces where id <= 10`); err != nil {
		t.Fatal(err)
	}
	count := func(sql string) int64 {
		t.Helper()
		var n int64
		if err := owner.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}

	code, out := adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42", "-batch-size", "100")
	if code != exitOK {
		t.Fatalf("exit %d, want 0", code)
	}
	if n := strings.Count(out, "import: batch"); n < 5 {
		t.Errorf("%d progress lines, want one per batch of 100 (at least 5)", n)
	}
	for _, c := range []struct {
		what string
		sql  string
		want int64
	}{
		{"groups", `select count(*) from lifecycle.namespaces where type = 'group'`, wantGroups},
		{"users", `select count(*) from lifecycle.namespaces where type = 'user'`, wantUsers},
		{"projects", `select count(*) from lifecycle.namespaces where type = 'project'`, wantProjects},
		{"still staged", `select count(*) from lifecycle.namespace_imports`, 0},
		{"g2 as it is now", `select count(*) from lifecycle.namespaces where id = 2 and path = 'g2'`, 1},
		{"archived", `select count(*) from lifecycle.namespaces where state = 1`,
			count(`select count(*) from gitlab.projects where archived and marked_for_deletion_at is null`) + 1},
		{"scheduled", `select count(*) from lifecycle.namespaces where state = 2`,
			count(`select count(*) from gitlab.projects where marked_for_deletion_at is not null and not coalesce(pending_delete, false)`) + 1},
		{"deletion in progress", `select count(*) from lifecycle.namespaces where state = 4`,
			count(`select count(*) from gitlab.projects where pending_delete`)},
		{"state bridges", `select count(*) from lifecycle.legacy_bridges`, 5},
		{"tree bridges", `select count(*) from lifecycle.legacy_tree_bridges`, 2},
		{"members bridge", `select count(*) from lifecycle.legacy_members_bridges where source = 'gitlab.members'::regclass`, 1},
		// GitLab's memberships, quietly: the group's and the project's (on its namespace); no
		// access request, invitation, level the lifecycle has not, or unknown namespace.
		{"memberships", `select count(*) from lifecycle.namespace_members`, 3},
		{"memberships as GitLab's", `select count(*) from lifecycle.namespace_members where (namespace_id, user_id, access_level) in
			((1, 42, 50), (1010, 50, 30), (1, 50, 20))`, 3},
		{"member facts", `select count(*) from lifecycle.facts where action like 'member_%'`, 0},
		{"facts trigger enabled", `select count(*) from pg_trigger where tgname = 'namespace_members_facts' and tgenabled = 'O'`, 1},
		{"divergences", `select count(*) from lifecycle.legacy_bridge_check()`, 0},
		{"invariants broken", `select count(*) from lifecycle.check_invariants()`, 0},
	} {
		if got := count(c.sql); got != c.want {
			t.Errorf("%s: %d, want %d", c.what, got, c.want)
		}
	}
	// The case-only siblings: each legacy path resolves to what it named.
	for path, want := range map[string]int64{"ACME": 201, "acme": 200, "g1/Docs": 1401, "g1/docs": 1402} {
		var id int64
		if err := owner.QueryRow(ctx, `select namespace_id from lifecycle.namespace_resolve($1)`, path).Scan(&id); err != nil || id != want {
			t.Errorf("namespace_resolve(%q) = %d (%v), want %d", path, id, err, want)
		}
	}
	if !strings.Contains(out, "memberships:  3 written (skipped 2:") {
		t.Errorf("the summary does not say 3 memberships written, 2 skipped")
	}
	if !strings.Contains(out, "imported:     "+strconv.Itoa(wantGroups+wantUsers+wantProjects)+" (rejected 0)") {
		t.Errorf("the summary does not say %d imported", wantGroups+wantUsers+wantProjects)
	}

	// GitLab's one role (lifecycle_app and lifecycle_worker, GitLab's table grants, its schema in
	// search_path): its own statements go through the bridges.
	gitlabURL := dbtest.LegacyLogin(t, dbURL, "gitlab", "lifecycle_app", "lifecycle_worker")
	gitlab, err := pgx.Connect(ctx, gitlabURL)
	if err != nil {
		t.Fatal(err)
	}
	defer gitlab.Close(ctx)
	// Projects::UpdateService archiving project p1000 (namespace 1000 + 10 = 1010, active), and
	// Groups::CreateService making a subgroup of g1.
	if _, err := gitlab.Exec(ctx, `update projects set archived = true where id = 11010`); err != nil {
		t.Fatal(err)
	}
	if _, err := gitlab.Exec(ctx, `insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
		values (300, 'New', 'new', 1, 'Group', 0, 1, now(), now())`); err != nil {
		t.Fatal(err)
	}
	if s := count(`select state from lifecycle.namespaces where id = 1010`); s != 1 {
		t.Errorf("GitLab archived project 11010: its namespace's state is %d, want 1 (archived)", s)
	}
	if n := count(`select count(*) from lifecycle.namespaces where id = 300 and parent_id = 1`); n != 1 {
		t.Errorf("GitLab's new subgroup 300 is not in the lifecycle")
	}

	// Again: nothing to do, the bridges kept (same ids), exit 0.
	ids := count(`select sum(id) from (select id from lifecycle.legacy_bridges union all select id from lifecycle.legacy_tree_bridges
		union all select id from lifecycle.legacy_members_bridges) b`)
	code, out = adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42")
	if code != exitOK {
		t.Fatalf("second run: exit %d, want 0", code)
	}
	if !strings.Contains(out, "kept") || !strings.Contains(out, "staged:       0 ") || !strings.Contains(out, "imported:     0 ") {
		t.Errorf("second run: want the bridges kept and nothing staged or imported")
	}
	if !strings.Contains(out, "memberships:  0 written") {
		t.Errorf("second run: memberships written again")
	}
	// The facts trigger is on again for everyone else, and the members bridge carries GitLab's
	// own membership writes: a member GitLab adds now is a membership, audited.
	if _, err := gitlab.Exec(ctx, `insert into members (id, access_level, source_id, source_type, user_id, notification_level, type,
		created_at, member_namespace_id) values (9, 30, 2, 'Namespace', 60, 3, 'GroupMember', now(), 2)`); err != nil {
		t.Fatal(err)
	}
	if n := count(`select count(*) from lifecycle.namespace_members where (namespace_id, user_id, access_level) = (2, 60, 30)`); n != 1 {
		t.Errorf("a member GitLab added after the adoption is not a membership")
	}
	if n := count(`select count(*) from lifecycle.facts where action = 'member_added'`); n != 1 {
		t.Errorf("a membership added after the adoption: %d member_added facts, want 1", n)
	}
	if got := count(`select sum(id) from (select id from lifecycle.legacy_bridges union all select id from lifecycle.legacy_tree_bridges
		union all select id from lifecycle.legacy_members_bridges) b`); got != ids {
		t.Errorf("second run: the bridges were replaced (ids sum %d, was %d)", got, ids)
	}
	// Another actor: the bridges are added again, with it.
	if code, _ = adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "43"); code != exitOK {
		t.Fatalf("third run: exit %d, want 0", code)
	}
	if n := count(`select count(*) from lifecycle.legacy_bridges where actor_id = 43`) + count(`select count(*) from lifecycle.legacy_tree_bridges where actor_id = 43`); n != 7 {
		t.Errorf("third run: %d bridges with actor 43, want all 7", n)
	}

	// A level GitLab changed behind the members bridge's back (no trigger fired): the next run
	// brings it in step, quietly, and writes no other membership.
	if _, err := owner.Exec(ctx, `set session_replication_role = replica;
		update gitlab.members set access_level = 40 where id = 9;
		reset session_replication_role`); err != nil {
		t.Fatal(err)
	}
	code, out = adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "43")
	if code != exitOK || !strings.Contains(out, "memberships:  1 written") {
		t.Errorf("a level changed in GitLab: exit %d, want 0 and one membership written:\n%s", code, out)
	}
	if n := count(`select count(*) from lifecycle.namespace_members where (namespace_id, user_id, access_level) = (2, 60, 40)`); n != 1 {
		t.Errorf("a level changed in GitLab is not the membership's after the run")
	}
	if n := count(`select count(*) from lifecycle.facts where action = 'member_changed'`); n != 0 {
		t.Errorf("the run's level change made %d member_changed facts, want none (quiet)", n)
	}

	// A divergence the backfill cannot settle (a project unarchived behind the bridges' back):
	// the check lists it, exit 3.
	if _, err := owner.Exec(ctx, `set session_replication_role = replica;
		update gitlab.projects set archived = false where id = 11001;
		reset session_replication_role`); err != nil {
		t.Fatal(err)
	}
	code, out = adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "43")
	if code != exitDiverged {
		t.Fatalf("with a divergence: exit %d, want %d", code, exitDiverged)
	}
	if !strings.Contains(out, "divergences:  1 ") || !strings.Contains(out, "legacy_bridge_check: namespace 1001:") {
		t.Errorf("with a divergence: the summary does not list namespace 1001")
	}
}

// Bad flags and a schema without GitLab's tables are refused before anything is written.
func TestAdoptRefusesWhatItCannotDo(t *testing.T) {
	dbURL := dbtest.NewDatabase(t)
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-schema", "gitlab", "-actor-id", "1"}, exitUsage},
		{[]string{"-preset", "other", "-actor-id", "1"}, exitUsage},
		{[]string{"-preset", "gitlab"}, exitUsage},
		{[]string{"-preset", "gitlab", "-schema", "nothing_here", "-actor-id", "1"}, exitFailed},
	} {
		if code, _ := adoptRun(t, dbURL, c.args...); code != c.want {
			t.Errorf("adopt %v: exit %d, want %d", c.args, code, c.want)
		}
	}
}

// The schema's owner need not be a superuser (docs/operations.md: CREATEDB, CREATEROLE, the
// database's owner): as such an owner, who ran the migrations, the command adopts the same
// population, exit 0, and a second run is a no-op.
func TestAdoptAsAnOwnerWhoIsNoSuperuser(t *testing.T) {
	ctx := context.Background()
	server, err := pgx.Connect(ctx, dbtest.ServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close(ctx)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := fmt.Sprintf("%s%d_owner_%s", dbtest.DatabasePrefix, os.Getpid(), hex.EncodeToString(b))
	role := pgx.Identifier{name}.Sanitize()
	if _, err := server.Exec(ctx, "create role "+role+" login createdb createrole"); err != nil {
		t.Fatal(err)
	}
	// Registered before the database: dropped after it.
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dbtest.ServerURL(t))
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "select pg_terminate_backend(pid) from pg_stat_activity where usename = $1", name)
		if _, err := c.Exec(context.Background(), "drop role if exists "+role); err != nil {
			t.Errorf("drop role %s: %v", name, err)
		}
	})
	dbURL := dbtest.EmptyDatabase(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.Exec(ctx, "alter database "+pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize()+" owner to "+role); err != nil {
		t.Fatal(err)
	}
	u.User = url.User(name)
	ownerURL := u.String()
	owner, err := pgx.Connect(ctx, ownerURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	if err := nslifecycle.Migrate(ctx, owner); err != nil {
		t.Fatal(err)
	}
	if err := adopt.LoadGitLabStructure(ctx, owner, "gitlab"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Exec(ctx, population); err != nil {
		t.Fatal(err)
	}
	// The backfill acts as the system: refused until the owner is in lifecycle_worker, before
	// anything is written.
	code, out := adoptRun(t, ownerURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42")
	if code != exitFailed || !strings.Contains(out, "GRANT lifecycle_worker TO") {
		t.Fatalf("an owner outside lifecycle_worker: exit %d, want %d and the grant to make", code, exitFailed)
	}
	var bridges int64
	if err := owner.QueryRow(ctx, `select count(*) from lifecycle.legacy_bridges`).Scan(&bridges); err != nil || bridges != 0 {
		t.Fatalf("the refused run left %d bridges (%v)", bridges, err)
	}
	if _, err := server.Exec(ctx, "grant lifecycle_worker to "+role); err != nil {
		t.Fatal(err)
	}
	code, out = adoptRun(t, ownerURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42", "-batch-size", "200")
	if code != exitOK {
		t.Fatalf("exit %d, want 0", code)
	}
	var namespaces, members, diverged int64
	if err := owner.QueryRow(ctx, `select (select count(*) from lifecycle.namespaces), (select count(*) from lifecycle.namespace_members),
		(select count(*) from lifecycle.legacy_bridge_check()) + (select count(*) from lifecycle.check_invariants())`).
		Scan(&namespaces, &members, &diverged); err != nil {
		t.Fatal(err)
	}
	if namespaces != wantGroups+wantUsers+wantProjects || members != 3 || diverged != 0 {
		t.Errorf("%d namespaces, %d memberships, %d divergences; want %d, 3, 0", namespaces, members, diverged,
			wantGroups+wantUsers+wantProjects)
	}
	if code, out = adoptRun(t, ownerURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42"); code != exitOK ||
		!strings.Contains(out, "kept") || !strings.Contains(out, "imported:     0 ") {
		t.Errorf("second run: exit %d, want 0 with the bridges kept and nothing imported", code)
	}
}

// A project whose two legacy rows name two parents (namespaces.parent_id of its project namespace
// is not projects.namespace_id) is staged with both and rejected with NS013: exit 3, the project
// left staged with its code, imported under neither; the rest is adopted. Once GitLab's rows agree,
// the next run imports it and exits 0.
func TestAdoptRejectsAProjectWhoseTwoParentsDisagree(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	owner, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	if err := adopt.LoadGitLabStructure(ctx, owner, "gitlab"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Exec(ctx, `
insert into gitlab.namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at) values
  (1, 'Left', 'left', null, 'Group', 0, 1, '2020-01-01'), (2, 'Right', 'right', null, 'Group', 0, 1, '2020-01-01'),
  (10, 'Torn', 'torn', 1, 'Project', 0, 1, '2021-01-01');
insert into gitlab.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id, created_at)
values (100, 'Torn', 'torn', 2, 10, 0, 1, '2021-01-01');
insert into gitlab.namespace_settings (namespace_id, created_at, updated_at) values (1, now(), now()), (2, now(), now());
insert into gitlab.members (id, access_level, source_id, source_type, user_id, notification_level, type, member_namespace_id)
values (1, 50, 1, 'Namespace', 42, 3, 'GroupMember', 1), (2, 50, 2, 'Namespace', 42, 3, 'GroupMember', 2)`); err != nil {
		t.Fatal(err)
	}
	code, out := adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42")
	if code != exitDiverged {
		t.Fatalf("exit %d, want %d", code, exitDiverged)
	}
	if !strings.Contains(out, "NS013") {
		t.Errorf("the summary does not name NS013:\n%s", out)
	}
	var rejectCode, reason string
	if err := owner.QueryRow(ctx, `select reject_code, reject_reason from lifecycle.namespace_imports where id = 10`).Scan(&rejectCode, &reason); err != nil {
		t.Fatalf("the project is not left staged: %v", err)
	}
	if rejectCode != "NS013" || !strings.Contains(reason, "2 and 1") {
		t.Errorf("staged with %s (%s), want NS013 naming parents 2 and 1", rejectCode, reason)
	}
	var live int64
	if err := owner.QueryRow(ctx, `select count(*) from lifecycle.namespaces where id = 10`).Scan(&live); err != nil || live != 0 {
		t.Errorf("the project was imported (%d rows, %v)", live, err)
	}

	// GitLab's rows agree again: the next run takes it.
	if _, err := owner.Exec(ctx, `update gitlab.namespaces set parent_id = 2 where id = 10`); err != nil {
		t.Fatal(err)
	}
	if code, _ := adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42"); code != exitOK {
		t.Fatalf("second run: exit %d, want 0", code)
	}
	var parent int64
	if err := owner.QueryRow(ctx, `select parent_id from lifecycle.namespaces where id = 10`).Scan(&parent); err != nil || parent != 2 {
		t.Errorf("after the fix: parent %d (%v), want 2", parent, err)
	}
}

// GitLab's role may create in GitLab's schema and in public: an operator it declares there that
// matches better than pg_catalog's (= on varchar beside pg_catalog's = on text) is never
// evaluated by cmd/adopt, which runs with its search_path pinned to pg_catalog. The operator here
// records every call it gets; run as the owner, the adoption leaves no record.
func TestAdoptEvaluatesNoOperatorAnotherRoleDeclared(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	owner, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	if err := adopt.LoadGitLabStructure(ctx, owner, "gitlab"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Exec(ctx, population); err != nil {
		t.Fatal(err)
	}
	for _, schema := range []string{"public", "gitlab"} {
		if _, err := owner.Exec(ctx, fmt.Sprintf(`
			create table if not exists public.evaluated (by text);
			create function %[1]s.planted_eq(a varchar, b varchar) returns boolean language plpgsql as $$
			begin
			  insert into public.evaluated values (current_user);
			  return a::text = b::text;
			end $$;
			create operator %[1]s.= (leftarg = varchar, rightarg = varchar, function = %[1]s.planted_eq)`, schema)); err != nil {
			t.Fatal(err)
		}
	}
	// The planted operator is one a session with the default search_path picks.
	var planted, calls int
	if _, err := owner.Exec(ctx, `set search_path to gitlab, public`); err != nil {
		t.Fatal(err)
	}
	if err := owner.QueryRow(ctx, `select count(*) from gitlab.namespaces n where n.type = 'Group'`).Scan(&planted); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Exec(ctx, `reset search_path`); err != nil {
		t.Fatal(err)
	}
	if err := owner.QueryRow(ctx, `select count(*) from public.evaluated`).Scan(&calls); err != nil || calls == 0 {
		t.Fatalf("the planted operator was not called by a query that names no schema for it (%d calls, %v): the test would prove nothing", calls, err)
	}
	if _, err := owner.Exec(ctx, `truncate public.evaluated`); err != nil {
		t.Fatal(err)
	}

	if code, _ := adoptRun(t, dbURL, "-preset", "gitlab", "-schema", "gitlab", "-actor-id", "42", "-batch-size", "100"); code != exitOK {
		t.Fatalf("exit %d, want 0", code)
	}
	if err := owner.QueryRow(ctx, `select count(*) from public.evaluated`).Scan(&calls); err != nil || calls != 0 {
		t.Fatalf("cmd/adopt evaluated the planted operator %d times (%v)", calls, err)
	}
}
