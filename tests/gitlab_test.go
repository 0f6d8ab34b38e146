package tests_test

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/db"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// gitlabStateAndTreeBridges bridges GitLab's tables in schema legacy as docs/adoption.md does (the
// state bridges of its flags and dates, the tree bridges of namespaces and projects), actor 42.
const gitlabStateAndTreeBridges = `
		select lifecycle.legacy_bridge_add('legacy.namespace_settings', 'namespace_id', 'archived', 'archived',
		  namespace_types => array['organization', 'group'], actor_id => 42, insert_missing => true);
		select lifecycle.legacy_bridge_add('legacy.group_deletion_schedules', 'group_id', 'deletion_scheduled', null,
		  'marked_for_deletion_on', 'user_id', array['organization', 'group'], actor_id => 42);
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'archived', 'archived', actor_id => 42);
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_scheduled', 'marked_for_deletion_at',
		  'marked_for_deletion_at', 'marked_for_deletion_by_user_id', actor_id => 42);
		select lifecycle.legacy_bridge_add('legacy.projects', 'project_namespace_id', 'deletion_in_progress', 'pending_delete',
		  actor_id => 42);
		select lifecycle.legacy_tree_bridge_add('legacy.namespaces', 'id', 'parent_id', 'path', 'name', 'visibility_level', 'type',
		  '{"Group": "group", "User": "user", "Project": "project"}', array['group', 'user'], 42, '{"organization_id": 1}');
		select lifecycle.legacy_tree_bridge_add('legacy.projects', 'project_namespace_id', 'namespace_id', 'path', 'name',
		  'visibility_level', null, '"project"', null, 42, '{"organization_id": 1}')`

// GitLab's code paths on GitLab's own tables, bridged as docs/adoption.md bridges them, run
// unchanged as GitLab runs them: one database role for its web and its Sidekiq workers, a login
// granted lifecycle_app and lifecycle_worker and its own tables, with its schema in search_path.
// Each path is written as the SQL GitLab's services issue (read from GitLab's
// Projects::DestroyService, ProjectDestroyWorker, Groups::DestroyService and Users::DestroyService:
// the statements, not their code), in the order they issue it; and its membership statements
// (Members::CreateService on a group and a project, UpdateService, RequestAccessService,
// InviteService by email and the acceptance, DestroyService), which the members bridge carries; and
// the memberships the product's API adds, changes and removes, which it carries back to members.
// Every one works, no raw SQLSTATE
// comes out of a bridge, and afterwards the lifecycle and GitLab's tables agree:
// legacy_bridge_check() and check_invariants() are empty, and lifecycle.namespace_members holds
// GitLab's memberships.
func TestGitLabsCodePathsRunUnchangedAsGitLabsRole(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	owner, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	if err := adopt.LoadGitLabStructure(ctx, owner, "legacy"); err != nil {
		t.Fatal(err)
	}
	gitlabURL := dbtest.LegacyLogin(t, dbURL, "legacy", "lifecycle_app", "lifecycle_worker")
	if _, err := owner.Exec(ctx, gitlabStateAndTreeBridges+`;
		select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group'])`); err != nil {
		t.Fatal(err)
	}
	gitlab, err := pgx.Connect(ctx, gitlabURL)
	if err != nil {
		t.Fatal(err)
	}
	defer gitlab.Close(ctx)

	// GitLab's statements, each in a transaction of its own (Rails wraps each save and destroy).
	run := func(t *testing.T, stmts ...string) error {
		t.Helper()
		tx, err := gitlab.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	}
	mustRun := func(t *testing.T, stmts ...string) {
		t.Helper()
		if err := run(t, stmts...); err != nil {
			t.Fatalf("%v\n%v", err, stmts)
		}
	}
	count := func(t *testing.T, sql string) int64 {
		t.Helper()
		var n int64
		if err := owner.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	agree := func(t *testing.T) {
		t.Helper()
		if n := count(t, `select count(*) from lifecycle.legacy_bridge_check()`); n != 0 {
			t.Errorf("legacy_bridge_check() returned %d rows", n)
		}
		// The memberships, read here without the product's definition: every active, accepted
		// members row on a namespace the lifecycle has, on its namespace (a project's:
		// project_namespace_id), is the lifecycle's membership at its level, and no other.
		if n := count(t, `with gitlab as (
			    select coalesce(p.project_namespace_id, m.source_id) as namespace_id, m.user_id, max(m.access_level) as access_level
			      from legacy.members m left join legacy.projects p on m.source_type = 'Project' and p.id = m.source_id
			     where m.user_id is not null and m.invite_token is null and m.requested_at is null
			       and (m.source_type = 'Namespace' or p.id is not null)
			     group by 1, 2)
			select count(*) from (
			  (select * from gitlab g where exists (select from lifecycle.namespaces n where n.id = g.namespace_id)
			   except select namespace_id, user_id, access_level from lifecycle.namespace_members)
			  union all
			  (select namespace_id, user_id, access_level from lifecycle.namespace_members except select * from gitlab)) d`); n != 0 {
			t.Errorf("GitLab's members and lifecycle.namespace_members differ in %d memberships", n)
		}
		if n := count(t, `select count(*) from lifecycle.check_invariants()`); n != 0 {
			t.Errorf("check_invariants() returned %d rows", n)
		}
	}
	state := func(t *testing.T, id int64) string {
		t.Helper()
		var s string
		if err := owner.QueryRow(ctx, `select coalesce((select lifecycle.state_name(state) from lifecycle.namespaces where id = $1), 'gone')`,
			id).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// A group (and its settings row), as Groups::CreateService writes them; a project, as
	// Projects::CreateService writes it: its project namespace first, then the project.
	group := func(t *testing.T, id int64, parent any, path string) {
		t.Helper()
		mustRun(t, `insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
			values (`+itoa(id)+`, '`+path+`', '`+path+`', `+sqlOrNull(parent)+`, 'Group', 20, 1, now(), now())`,
			`insert into namespace_settings (namespace_id, created_at, updated_at) values (`+itoa(id)+`, now(), now())`)
	}
	project := func(t *testing.T, projectID, nsID, parent int64, path string, level int64) {
		t.Helper()
		mustRun(t, `insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
			values (`+itoa(nsID)+`, '`+path+`', '`+path+`', `+itoa(parent)+`, 'Project', `+itoa(level)+`, 1, now(), now())`,
			`insert into projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id, created_at, updated_at)
			values (`+itoa(projectID)+`, '`+path+`', '`+path+`', `+itoa(parent)+`, `+itoa(nsID)+`, `+itoa(level)+`, 1, now(), now())`)
	}
	// GitLab's member rows, as Members::CreatorService writes them (GroupMember, ProjectMember),
	// with the columns of a request or an invitation in extraColumns and extraValues.
	member := func(source int64, sourceType string, user any, level int64, extraColumns, extraValues string) string {
		kind, ns := "GroupMember", itoa(source)
		if sourceType == "Project" {
			kind, ns = "ProjectMember", `(select project_namespace_id from projects where id = `+itoa(source)+`)`
		}
		return `insert into members (access_level, source_id, source_type, user_id, notification_level, type, created_at, updated_at,
			created_by_id, member_namespace_id` + extraColumns + `)
			values (` + itoa(level) + `, ` + itoa(source) + `, '` + sourceType + `', ` + sqlOrNull(user) + `, 3, '` + kind +
			`', now(), now(), 42, ` + ns + extraValues + `)`
	}
	levelOf := func(t *testing.T, ns, user int64) int64 {
		t.Helper()
		return count(t, `select coalesce((select access_level from lifecycle.namespace_members where namespace_id = `+itoa(ns)+
			` and user_id = `+itoa(user)+`), 0)`)
	}
	group(t, 1, nil, "acme")
	// The creator, an owner (Groups::CreateService adds them): the bridges' actor's membership.
	mustRun(t, member(1, "Namespace", int64(42), 50, "", ""))
	if l := levelOf(t, 1, 42); l != 50 {
		t.Fatalf("the group's creator: level %d in the lifecycle, want 50", l)
	}
	project(t, 100, 10, 1, "site", 20)
	project(t, 101, 11, 1, "docs", 20)
	agree(t)

	t.Run("memberships: add, change, request, invite and accept, remove", func(t *testing.T) {
		facts := func() int64 { return count(t, `select count(*) from lifecycle.facts where action like 'member_%'`) }
		before := facts()
		// Members::CreateService on a group, then on a project (its namespace is 10).
		mustRun(t, member(1, "Namespace", int64(70), 30, "", ""))
		mustRun(t, member(100, "Project", int64(71), 20, "", ""))
		if a, b := levelOf(t, 1, 70), levelOf(t, 10, 71); a != 30 || b != 20 {
			t.Fatalf("group member at %d (want 30), project member at %d on the project's namespace (want 20)", a, b)
		}
		agree(t)
		// Members::UpdateService: a level.
		mustRun(t, `update members set access_level = 40, updated_at = now() where source_type = 'Project' and source_id = 100 and user_id = 71`)
		if l := levelOf(t, 10, 71); l != 40 {
			t.Fatalf("after the level change: %d, want 40", l)
		}
		agree(t)
		// Members::RequestAccessService: not a membership.
		mustRun(t, member(1, "Namespace", int64(72), 30, ", requested_at", ", now()"))
		if l := levelOf(t, 1, 72); l != 0 {
			t.Fatalf("an access request is a membership at %d", l)
		}
		agree(t)
		// Members::InviteService by email, then Member#accept_invite! by the user who signed up.
		mustRun(t, member(1, "Namespace", nil, 20, ", invite_email, invite_token", ", 'bob@example.com', 'tok3n'"))
		if n := count(t, `select count(*) from lifecycle.namespace_members where namespace_id = 1`); n != 2 {
			t.Fatalf("after an invitation by email: %d memberships of the group, want 2 (42, 70)", n)
		}
		agree(t)
		mustRun(t, `update members set user_id = 73, invite_token = null, invite_accepted_at = now(), updated_at = now()
			where invite_email = 'bob@example.com'`)
		if l := levelOf(t, 1, 73); l != 20 {
			t.Fatalf("the accepted invitation: level %d, want 20", l)
		}
		agree(t)
		// Members::DestroyService.
		mustRun(t, `delete from members where source_type = 'Namespace' and source_id = 1 and user_id = 70`)
		if l := levelOf(t, 1, 70); l != 0 {
			t.Fatalf("a removed member is still a member at %d", l)
		}
		agree(t)
		// Each carried change is audited as the API's are: 2 added, 1 changed, 1 accepted, 1 removed.
		if n := facts() - before; n != 5 {
			t.Errorf("%d member facts for the five membership changes, want 5", n)
		}
	})

	t.Run("memberships through the API: add, change, remove, carried back to members", func(t *testing.T) {
		// GitLab's row of a pair, as GitLab's code would read it back.
		gitlabRow := func(t *testing.T, user int64) string {
			t.Helper()
			var row string
			if err := owner.QueryRow(ctx, `select coalesce((select string_agg(format('%s %s %s %s n%s ns%s', source_type, source_id, access_level,
				    type, notification_level, member_namespace_id), '; ' order by id)
				  from legacy.members where user_id = $1 and created_at is not null and updated_at is not null), 'none')`, user).Scan(&row); err != nil {
				t.Fatal(err)
			}
			return row
		}
		// As GitLab's one role, through the product's queries: a group member, a member of a
		// project's namespace (11: project 101), a level change, a removal.
		q := db.New(gitlab)
		for _, m := range []db.MemberUpsertParams{{NamespaceID: 1, UserID: 80, AccessLevel: 30}, {NamespaceID: 11, UserID: 81, AccessLevel: 20}} {
			if _, err := q.MemberUpsert(ctx, m); err != nil {
				t.Fatalf("%+v: %v", m, err)
			}
		}
		if a, b := gitlabRow(t, 80), gitlabRow(t, 81); a != "Namespace 1 30 GroupMember n3 ns1" || b != "Project 101 20 ProjectMember n3 ns11" {
			t.Fatalf("GitLab's rows after the API's additions: %q, %q", a, b)
		}
		agree(t)
		if _, err := q.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: 11, UserID: 81, AccessLevel: 40}); err != nil {
			t.Fatal(err)
		}
		if r := gitlabRow(t, 81); r != "Project 101 40 ProjectMember n3 ns11" {
			t.Fatalf("GitLab's row after the API's level change: %q", r)
		}
		agree(t)
		if err := q.MemberDelete(ctx, db.MemberDeleteParams{NamespaceID: 1, UserID: 80}); err != nil {
			t.Fatal(err)
		}
		if r := gitlabRow(t, 80); r != "none" {
			t.Fatalf("GitLab's row after the API's removal: %q", r)
		}
		agree(t)

		// As a plain lifecycle_app login: without GitLab's table, refused with NS005 and nothing
		// changes; granted it, the same calls are carried back.
		appURL := dbtest.LoginAs(t, dbURL, "lifecycle_app")
		au, err := url.Parse(appURL)
		if err != nil {
			t.Fatal(err)
		}
		appRole := pgx.Identifier{au.User.Username()}.Sanitize()
		app, err := pgx.Connect(ctx, appURL)
		if err != nil {
			t.Fatal(err)
		}
		defer app.Close(ctx)
		aq := db.New(app)
		_, err = aq.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: 1, UserID: 82, AccessLevel: 20})
		var e *nslifecycle.Error
		if !errors.As(nslifecycle.FromDB(err), &e) || e.Code != "NS005" {
			t.Fatalf("an API membership by a role that may not write GitLab's members: %v, want NS005", err)
		}
		if l, r := levelOf(t, 1, 82), gitlabRow(t, 82); l != 0 || r != "none" {
			t.Fatalf("after the refusal: level %d in the lifecycle, GitLab's row %q", l, r)
		}
		if _, err := owner.Exec(ctx, `grant usage on schema legacy to `+appRole+`;
			grant select on legacy.projects to `+appRole+`;
			grant select, insert, update, delete on legacy.members to `+appRole+`;
			grant usage on legacy.members_id_seq to `+appRole); err != nil {
			t.Fatal(err)
		}
		if _, err := aq.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: 1, UserID: 82, AccessLevel: 20}); err != nil {
			t.Fatal(err)
		}
		if _, err := aq.MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: 1, UserID: 82, AccessLevel: 10}); err != nil {
			t.Fatal(err)
		}
		if r := gitlabRow(t, 82); r != "Namespace 1 10 GroupMember n3 ns1" {
			t.Fatalf("GitLab's row after lifecycle_app's addition and change: %q", r)
		}
		agree(t)
		if err := aq.MemberDelete(ctx, db.MemberDeleteParams{NamespaceID: 1, UserID: 82}); err != nil {
			t.Fatal(err)
		}
		if r := gitlabRow(t, 82); r != "none" {
			t.Fatalf("GitLab's row after lifecycle_app's removal: %q", r)
		}
		agree(t)
	})

	t.Run("delete immediately, then ProjectDestroyWorker", func(t *testing.T) {
		// Projects::DestroyService#async_execute on a project not marked for deletion.
		mustRun(t, `update projects set pending_delete = true, updated_at = now() where id = 100`)
		if s := state(t, 10); s != "deletion_in_progress" {
			t.Fatalf("after pending_delete: %s", s)
		}
		agree(t)
		// ProjectDestroyWorker: the project's members, then its row (GitLab's trigger takes its
		// namespaces row with it).
		mustRun(t, `delete from members where source_type = 'Project' and source_id = 100`, `delete from projects where id = 100`)
		if s := state(t, 10); s != "gone" {
			t.Fatalf("after the worker: %s, want the namespace hard-deleted", s)
		}
		if n := count(t, `select count(*) from lifecycle.deleted_namespaces where namespace_id = 10`); n != 1 {
			t.Fatalf("%d snapshots in deleted_namespaces", n)
		}
		agree(t)
	})

	t.Run("the failure handler of a deletion", func(t *testing.T) {
		mustRun(t, `update projects set pending_delete = true, updated_at = now() where id = 101`)
		// Projects::DestroyService#attempt_rollback.
		mustRun(t, `update projects set delete_error = 'Failed to remove project repository', pending_delete = false, updated_at = now()
			where id = 101`)
		if s := state(t, 11); s != "deletion_scheduled" {
			t.Fatalf("after the failure handler: %s, want deletion_scheduled (requeued)", s)
		}
		agree(t)
	})

	t.Run("Groups::DestroyService on a scheduled group", func(t *testing.T) {
		group(t, 2, int64(1), "attic")
		group(t, 3, int64(2), "boxes")
		project(t, 102, 12, 2, "wiki", 20)
		project(t, 103, 13, 3, "old", 20)
		// Groups::MarkForDeletionService: the schedule row.
		mustRun(t, `insert into group_deletion_schedules (group_id, user_id, marked_for_deletion_on) values (2, 42, current_date - 8)`)
		if s := state(t, 2); s != "deletion_scheduled" {
			t.Fatalf("scheduled group: %s", s)
		}
		// GroupDestroyWorker: the group's projects, its subgroups (the same, depth first), then the
		// group; its settings and schedule rows go with its namespaces row (GitLab's foreign keys
		// cascade: written out here in the order the cascade deletes them).
		mustRun(t,
			`delete from members where source_type = 'Project' and source_id = 102`, `delete from projects where id = 102`,
			`delete from members where source_type = 'Project' and source_id = 103`, `delete from projects where id = 103`,
			`delete from namespaces where id = 3`,
			`delete from namespace_settings where namespace_id = 3`, `delete from group_deletion_schedules where group_id = 3`,
			`delete from namespaces where id = 2`,
			`delete from namespace_settings where namespace_id = 2`, `delete from group_deletion_schedules where group_id = 2`)
		if n := count(t, `select count(*) from lifecycle.namespaces where id in (2, 3, 12, 13)`); n != 0 {
			t.Fatalf("%d lifecycle rows of the deleted group left", n)
		}
		agree(t)
	})

	t.Run("deleting a user, then a new user with the username", func(t *testing.T) {
		mustRun(t, `insert into namespaces (id, name, path, type, visibility_level, organization_id, created_at, updated_at)
			values (5, 'Alice', 'alice', 'User', 20, 1, now(), now())`)
		project(t, 105, 15, 5, "dotfiles", 20)
		project(t, 106, 16, 5, "notes", 20)
		// Users::DestroyService: the user's projects (Projects::DestroyService, at once), then the
		// user, whose namespace goes with it.
		mustRun(t,
			`delete from members where source_type = 'Project' and source_id = 105`, `delete from projects where id = 105`,
			`delete from members where source_type = 'Project' and source_id = 106`, `delete from projects where id = 106`,
			`delete from namespaces where id = 5`)
		if n := count(t, `select count(*) from lifecycle.namespaces where id in (5, 15, 16)`); n != 0 {
			t.Fatalf("%d live lifecycle rows of the deleted user", n)
		}
		mustRun(t, `insert into namespaces (id, name, path, type, visibility_level, organization_id, created_at, updated_at)
			values (6, 'Alice again', 'alice', 'User', 20, 1, now(), now())`)
		var resolved int64
		if err := owner.QueryRow(ctx, `select namespace_id from lifecycle.namespace_resolve('alice')`).Scan(&resolved); err != nil || resolved != 6 {
			t.Fatalf("namespace_resolve('alice') = %d (%v), want the new user's namespace 6", resolved, err)
		}
		agree(t)
	})

	t.Run("a deletion the system schedules writes the configured user", func(t *testing.T) {
		group(t, 7, int64(1), "sandbox")
		if _, err := gitlab.Exec(ctx, `select lifecycle.namespace_event(7, 'schedule_deletion', null)`); err != nil {
			t.Fatal(err)
		}
		var user int64
		if err := owner.QueryRow(ctx, `select user_id from legacy.group_deletion_schedules where group_id = 7`).Scan(&user); err != nil || user != 42 {
			t.Fatalf("group_deletion_schedules.user_id = %d (%v), want the bridge's user 42", user, err)
		}
		agree(t)
	})

	t.Run("archiving a group without a settings row creates the row", func(t *testing.T) {
		mustRun(t, `insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
			values (8, 'labs', 'labs', 1, 'Group', 20, 1, now(), now())`)
		if _, err := gitlab.Exec(ctx, `select lifecycle.namespace_event(8, 'archive', 42)`); err != nil {
			t.Fatal(err)
		}
		if n := count(t, `select count(*) from legacy.namespace_settings where namespace_id = 8 and archived`); n != 1 {
			t.Fatalf("%d archived settings rows for the group", n)
		}
		agree(t)
	})

	t.Run("what GitLab's columns cannot say is refused", func(t *testing.T) {
		for _, event := range []string{"archive", "schedule_deletion"} {
			_, err := gitlab.Exec(ctx, `select lifecycle.namespace_event(6, $1, null)`, event)
			var e *nslifecycle.Error
			if !errors.As(nslifecycle.FromDB(err), &e) || e.Code != "NS001" || e.Hint == "" {
				t.Fatalf("%s of a user namespace: %v, want NS001 with a hint", event, err)
			}
		}
		if s := state(t, 6); s != "ancestor_inherited" {
			t.Fatalf("the user namespace is %s", s)
		}
		// A membership of the user namespace: GitLab's members name groups and projects only (a
		// personal namespace's owner is its owner_id), so the product's API refuses one.
		_, err := db.New(gitlab).MemberUpsert(ctx, db.MemberUpsertParams{NamespaceID: 6, UserID: 83, AccessLevel: 30})
		var e *nslifecycle.Error
		if !errors.As(nslifecycle.FromDB(err), &e) || e.Code != "NS010" || e.Hint == "" {
			t.Fatalf("a membership of a user namespace: %v, want NS010 with a hint", err)
		}
		if n := count(t, `select count(*) from legacy.members where user_id = 83`) + levelOf(t, 6, 83); n != 0 {
			t.Fatalf("after the refusal: %d", n)
		}
		agree(t)
	})

	t.Run("no raw SQLSTATE comes out of a bridge", func(t *testing.T) {
		// A GitLab project more visible than its private group is the rules' NS002; a path another
		// project of the group holds, NS006.
		mustRun(t, `insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
			values (9, 'private', 'private', 1, 'Group', 0, 1, now(), now())`)
		project(t, 109, 19, 9, "one", 0)
		project(t, 110, 20, 9, "two", 0)
		for stmt, want := range map[string]string{
			`update projects set visibility_level = 20 where id = 109`: "NS002",
			`update projects set path = 'two' where id = 109`:          "NS006",
		} {
			err := run(t, stmt)
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != want {
				t.Errorf("%s: %v, want %s", stmt, err, want)
			}
		}
		agree(t)
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func sqlOrNull(v any) string {
	if id, ok := v.(int64); ok {
		return itoa(id)
	}
	return "null"
}
