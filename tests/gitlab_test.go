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
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// GitLab's code paths on GitLab's own tables, bridged as docs/adoption.md bridges them, run
// unchanged as GitLab runs them: one database role for its web and its Sidekiq workers, a login
// granted lifecycle_app and lifecycle_worker and its own tables, with its schema in search_path.
// Each path is written as the SQL GitLab's services issue (read from GitLab's
// Projects::DestroyService, ProjectDestroyWorker, Groups::DestroyService and Users::DestroyService:
// the statements, not their code), in the order they issue it. Every one works, no raw SQLSTATE
// comes out of a bridge, and afterwards the lifecycle and GitLab's tables agree:
// legacy_bridge_check() and check_invariants() are empty.
func TestGitLabsCodePathsRunUnchangedAsGitLabsRole(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	owner, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	gitlabURL := dbtest.LoginAs(t, dbURL, "lifecycle_app")
	u, err := url.Parse(gitlabURL)
	if err != nil {
		t.Fatal(err)
	}
	role := pgx.Identifier{u.User.Username()}.Sanitize()
	// Before LoginAs drops the role (cleanups run last first): what it was granted here goes.
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dbURL)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), "drop owned by "+role); err != nil {
			t.Error(err)
		}
	})
	if err := adopt.LoadGitLabStructure(ctx, owner, "legacy"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Exec(ctx, `grant lifecycle_worker to `+role+`;
		grant usage on schema legacy to `+role+`;
		grant select, insert, update, delete on all tables in schema legacy to `+role+`;
		grant usage on all sequences in schema legacy to `+role+`;
		alter role `+role+` set search_path = legacy;
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
		  'visibility_level', null, '"project"', null, 42, '{"organization_id": 1}')`); err != nil {
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
	group(t, 1, nil, "acme")
	if _, err := owner.Exec(ctx, `insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (1, 42, 50)`); err != nil {
		t.Fatal(err)
	}
	project(t, 100, 10, 1, "site", 20)
	project(t, 101, 11, 1, "docs", 20)
	agree(t)

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
