package tests_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nslifecycle/nslifecycle"
	"github.com/nslifecycle/nslifecycle/internal/adopt"
	"github.com/nslifecycle/nslifecycle/internal/dbtest"
)

// gitlabOwningItsTables bridges GitLab's tables (schema legacy) as docs/adoption.md does, state,
// tree and members, and returns the owner's connection and a connection of GitLab's one role
// (lifecycle_app and lifecycle_worker) holding what a real install gives it: every privilege on its
// tables, TRIGGER included, and CREATE on its schema. A group acme (1) with its owner 42 and a
// project (namespace 10, project 100) exist.
func gitlabOwningItsTables(t *testing.T) (owner, gitlab *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	dbURL := dbtest.NewDatabase(t)
	owner, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close(context.Background()) })
	if err := adopt.LoadGitLabStructure(ctx, owner, "legacy"); err != nil {
		t.Fatal(err)
	}
	gitlabURL := dbtest.LegacyLogin(t, dbURL, "legacy", "lifecycle_app", "lifecycle_worker")
	gitlab, err = pgx.Connect(ctx, gitlabURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gitlab.Close(context.Background()) })
	role := pgx.Identifier{gitlab.Config().User}.Sanitize()
	if _, err := owner.Exec(ctx, gitlabStateAndTreeBridges+`;
		select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
		grant all on all tables in schema legacy to `+role+`;
		grant create on schema legacy to `+role); err != nil {
		t.Fatal(err)
	}
	if _, err := gitlab.Exec(ctx, `
		insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
		  values (1, 'acme', 'acme', null, 'Group', 20, 1, now(), now());
		insert into namespace_settings (namespace_id, created_at, updated_at) values (1, now(), now());
		insert into members (access_level, source_id, source_type, user_id, notification_level, type, created_at, updated_at, member_namespace_id)
		  values (50, 1, 'Namespace', 42, 3, 'GroupMember', now(), now(), 1);
		insert into namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
		  values (10, 'site', 'site', 1, 'Project', 20, 1, now(), now());
		insert into projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id, created_at, updated_at)
		  values (100, 'site', 'site', 1, 10, 20, 1, now(), now())`); err != nil {
		t.Fatal(err)
	}
	return owner, gitlab
}

// GitLab's role puts a trigger on every table the bridges write back (its function in pg_temp,
// as an attacker's would be) that tries to make the role a superuser and records, in a setting
// of the session, the role it ran as and how the attempt ended. Then, through the API as GitLab's
// role, every write-back runs: a membership added (members), a group created (namespaces and,
// inserted missing, namespace_settings), a project archived (projects), the group scheduled for
// deletion (group_deletion_schedules), started and hard-deleted (the namespaces row deleted, the
// settings and schedule rows with it). Every trigger ran, each as lifecycle_bridge, each attempt
// was refused (42501), and GitLab's role is no superuser. On 063 the same triggers ran as the
// schema's owner, and the first one made the role a superuser.
func TestATriggerTheApplicationsRolePutsOnItsTableRunsWithNoMoreRightsThanThatRole(t *testing.T) {
	ctx := context.Background()
	owner, gitlab := gitlabOwningItsTables(t)
	if _, err := gitlab.Exec(ctx, `
		create function pg_temp.planted() returns trigger language plpgsql as $$
		declare
		  outcome text;
		begin
		  begin
		    execute format('alter role %I superuser', session_user);
		    outcome := 'superuser';
		  exception when others then
		    outcome := sqlstate;
		  end;
		  perform set_config('planted.runs', coalesce(current_setting('planted.runs', true), '')
		                     || format('%s %s %s %s;', tg_table_name, tg_op, current_user, outcome), false);
		  return null;
		end $$`); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"namespaces", "projects", "namespace_settings", "group_deletion_schedules", "members"} {
		if _, err := gitlab.Exec(ctx, fmt.Sprintf(`create trigger planted after insert or update or delete on legacy.%s
			for each row execute function pg_temp.planted()`, table)); err != nil {
			t.Fatalf("GitLab's role cannot put a trigger on %s: %v", table, err)
		}
	}

	var group int64
	for _, step := range []string{
		`insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (1, 43, 30)`,
		`insert into lifecycle.namespaces (parent_id, type, path, name) values (1, 'group', 'eng', 'eng') returning id`,
		`select * from lifecycle.namespace_event(10, 'archive', 42)`,
		`select * from lifecycle.namespace_event(%d, 'archive', 42)`,
		`select * from lifecycle.namespace_event(%d, 'unarchive', 42)`,
		`select * from lifecycle.namespace_event(%d, 'schedule_deletion', 42)`,
		`select * from lifecycle.namespace_event(%d, 'deletion_start', 42)`,
		`select * from lifecycle.namespace_hard_delete(%d)`,
	} {
		if strings.Contains(step, "%d") {
			step = fmt.Sprintf(step, group)
		}
		if strings.Contains(step, "returning id") {
			if err := gitlab.QueryRow(ctx, step).Scan(&group); err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			continue
		}
		if _, err := gitlab.Exec(ctx, step); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}

	var runs string
	if err := gitlab.QueryRow(ctx, `select coalesce(current_setting('planted.runs', true), '')`).Scan(&runs); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, run := range strings.Split(strings.TrimSuffix(runs, ";"), ";") {
		f := strings.Fields(run)
		if len(f) != 4 {
			t.Fatalf("the planted triggers never ran (%q): the test would prove nothing", runs)
		}
		seen[f[0]+" "+f[1]] = true
		if f[2] != "lifecycle_bridge" || f[3] != "42501" {
			t.Errorf("GitLab's trigger on %s (%s) ran as %s and its ALTER ROLE ended %s; want lifecycle_bridge and 42501", f[0], f[1], f[2], f[3])
		}
	}
	for _, want := range []string{"members INSERT", "namespaces INSERT", "namespace_settings INSERT", "projects UPDATE",
		"namespace_settings UPDATE", "group_deletion_schedules INSERT", "namespaces DELETE", "namespace_settings DELETE",
		"group_deletion_schedules DELETE"} {
		if !seen[want] {
			t.Errorf("no write-back fired GitLab's trigger on %s (runs: %s)", want, runs)
		}
	}
	var super bool
	if err := owner.QueryRow(ctx, `select rolsuper from pg_roles where rolname = $1`, gitlab.Config().User).Scan(&super); err != nil {
		t.Fatal(err)
	}
	if super {
		t.Fatal("GitLab's role made itself a superuser through a write-back")
	}
}

// Code that runs as lifecycle_bridge (a trigger GitLab's role put on its table, fired by a
// write-back) owns the writers, and so may alter them: made SECURITY INVOKER, a writer would run
// as its caller, the schema's owner, and so would the next trigger. Each such alteration is
// refused with the change that made it (NS010 naming the writer, everything rolled back): the
// writer stays as the migrations made it and the project unarchived. On 063 the triggers ran as
// the schema's owner and each alteration went through.
func TestAWriterAlteredByTheCodeItFiresRefusesTheChangeThatAlteredIt(t *testing.T) {
	ctx := context.Background()
	owner, gitlab := gitlabOwningItsTables(t)
	const writer = `lifecycle.legacy_bridge_write(lifecycle.legacy_bridges,bigint,boolean,timestamp with time zone,bigint)`
	fingerprint := func() string {
		var s string
		if err := owner.QueryRow(ctx, `select format('%s %s %s %s', p.proowner::regrole, p.prosecdef, p.proconfig, p.proacl)
			from pg_proc p where p.oid = $1::regprocedure`, writer).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	made := fingerprint()
	if !strings.HasPrefix(made, "lifecycle_bridge t ") {
		t.Fatalf("the writer as migrated: %s, want owned by lifecycle_bridge and SECURITY DEFINER", made)
	}
	for _, alteration := range []string{
		`alter function ` + writer + ` security invoker`,
		`alter function ` + writer + ` set search_path to legacy, public`,
		`grant execute on function ` + writer + ` to public`,
	} {
		t.Run(alteration, func(t *testing.T) {
			if _, err := gitlab.Exec(ctx, fmt.Sprintf(`
				create or replace function pg_temp.planted() returns trigger language plpgsql as $$
				begin
				  execute %s;
				  return null;
				end $$`, quoteLiteral(alteration))); err != nil {
				t.Fatal(err)
			}
			// GitLab's role may create a trigger, not drop one (that needs the table's owner): the
			// trigger stays, its function is replaced for each alteration.
			if _, err := gitlab.Exec(ctx, `do $$ begin
				if not exists (select from pg_trigger where tgname = 'planted' and tgrelid = 'legacy.projects'::regclass) then
				  create trigger planted after update on legacy.projects for each row execute function pg_temp.planted();
				end if; end $$`); err != nil {
				t.Fatal(err)
			}
			_, err := gitlab.Exec(ctx, `select * from lifecycle.namespace_event(10, 'archive', 42)`)
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "NS010" || !strings.Contains(pgErr.Message, "legacy_bridge_write") {
				t.Fatalf("the archive whose write-back altered the writer: %v, want NS010 naming legacy_bridge_write", err)
			}
			if now := fingerprint(); now != made {
				t.Errorf("the writer is now %s, was %s", now, made)
			}
			var archived bool
			if err := owner.QueryRow(ctx, `select lifecycle.state_name(state) = 'archived' or p.archived
				from lifecycle.namespaces n, legacy.projects p where n.id = 10 and p.id = 100`).Scan(&archived); err != nil || archived {
				t.Errorf("the project is archived (%v): the change was not rolled back", err)
			}
		})
	}
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// ownersApart makes a real install's roles: a database whose owner, the lifecycle's, is a login
// that is no superuser (CREATEROLE, as a managed service's admin), migrated by it; and GitLab's
// role (lifecycle_app and lifecycle_worker) owning GitLab's schema legacy and its tables. Returns
// the server's superuser's, the owner's and GitLab's connections, and the owner's role name.
func ownersApart(t *testing.T) (admin, owner, gitlab *pgx.Conn, ownerUser string) {
	t.Helper()
	ctx := context.Background()
	dbURL := dbtest.EmptyDatabase(t)
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	database := admin.Config().Database
	ownerURL := dbtest.LoginAs(t, dbURL, "")
	gitlabURL := dbtest.LoginAs(t, dbURL, "lifecycle_app")
	ownerCfg, _ := pgx.ParseConfig(ownerURL)
	gitlabCfg, _ := pgx.ParseConfig(gitlabURL)
	ownerRole, gitlabRole := pgx.Identifier{ownerCfg.User}.Sanitize(), pgx.Identifier{gitlabCfg.User}.Sanitize()
	for _, s := range []string{
		"alter role " + ownerRole + " nosuperuser createrole",
		"alter database " + pgx.Identifier{database}.Sanitize() + " owner to " + ownerRole,
		"grant lifecycle_worker to " + gitlabRole,
		"grant create on database " + pgx.Identifier{database}.Sanitize() + " to " + gitlabRole,
	} {
		if _, err := admin.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	// The database and what the two logins made go, before the logins are dropped (the writers'
	// owner, lifecycle_bridge, is neither of them: their DROP OWNED alone would leave them).
	t.Cleanup(func() {
		if c, err := pgx.Connect(context.Background(), dbURL); err == nil {
			_, _ = c.Exec(context.Background(), "drop schema if exists legacy, lifecycle, lifecycle_pgcrypto cascade")
			_, _ = c.Exec(context.Background(), "alter database "+pgx.Identifier{database}.Sanitize()+" owner to current_user")
			c.Close(context.Background())
		}
	})
	owner, err = pgx.Connect(ctx, ownerURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close(context.Background()) })
	if err := nslifecycle.Migrate(ctx, owner); err != nil {
		t.Fatalf("the migrations, run by an owner that is no superuser: %v", err)
	}
	gitlab, err = pgx.Connect(ctx, gitlabURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gitlab.Close(context.Background()) })
	if err := adopt.LoadGitLabStructure(ctx, gitlab, "legacy"); err != nil {
		t.Fatal(err)
	}
	return admin, owner, gitlab, ownerCfg.User
}

// A real install's roles (ownersApart): the lifecycle's owner is no superuser, and GitLab's role
// owns GitLab's schema and tables, so it may put a policy on them.
// A policy runs as the role that reads: the owner's functions that read members (the check, the
// carrying of GitLab's writes) would have run GitLab's function with the owner's rights. Here the
// policy's function records who ran it. The owner's reads refuse a read the policy would filter
// (42501) rather than run it; the write-back, as lifecycle_bridge, runs it with that role's rights.
// The bridge is first refused (NS005) while GitLab's role has given the owner its tables without
// the right to pass them on, with the GRANT to run; GitLab's role runs it, and the bridge is added.
// On 063 the owner ran GitLab's function at each check and each carried write.
func TestAPolicyOfTheApplicationsRoleNeverRunsWithTheOwnersRights(t *testing.T) {
	ctx := context.Background()
	admin, owner, gitlab, ownerUser := ownersApart(t)
	ownerRole := pgx.Identifier{ownerUser}.Sanitize()
	mustExec := func(conn *pgx.Conn, sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// What docs/adoption.md asks of GitLab's role for the owner: its tables to read, write and
	// put the bridges' triggers on.
	mustExec(gitlab, `grant usage on schema legacy to `+ownerRole+`;
		grant select, insert, update, delete, trigger on all tables in schema legacy to `+ownerRole)

	bridge := `select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group'])`
	_, err := owner.Exec(ctx, bridge)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "NS005" || !strings.Contains(pgErr.Hint, "TO lifecycle_bridge") {
		t.Fatalf("the members bridge on tables whose writes the owner may not pass on: %v, want NS005 with the GRANT to lifecycle_bridge", err)
	}
	mustExec(gitlab, `grant usage on schema legacy to lifecycle_bridge;
		grant select, insert, update, delete on legacy.members to lifecycle_bridge;
		grant select on legacy.projects to lifecycle_bridge;
		grant usage on all sequences in schema legacy to lifecycle_bridge`)
	mustExec(owner, bridge)

	var group int64
	if err := owner.QueryRow(ctx, `with o as (insert into lifecycle.namespaces (type, path, name) values ('organization', 'o', 'o') returning id)
		insert into lifecycle.namespaces (parent_id, type, path, name) select id, 'group', 'acme', 'acme' from o returning id`).Scan(&group); err != nil {
		t.Fatal(err)
	}
	member := func(user int64) string {
		return fmt.Sprintf(`insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, created_at,
			updated_at, member_namespace_id) values (50, %d, 'Namespace', %d, 3, 'GroupMember', now(), now(), %[1]d)`, group, user)
	}
	mustExec(gitlab, member(42))

	// GitLab's role's policy on members, its function recording the role that runs it.
	mustExec(gitlab, `
		create table legacy.policy_runs (role name);
		grant insert on legacy.policy_runs to public;
		create function legacy.seen() returns boolean language plpgsql as $$
		begin
		  insert into legacy.policy_runs values (current_user);
		  return true;
		end $$;
		alter table legacy.members enable row level security;
		create policy seen on legacy.members using (legacy.seen())`)

	// The owner's reads: the check (a worker's call, run as the owner), GitLab's write carried.
	for _, read := range []struct {
		conn *pgx.Conn
		sql  string
	}{
		{gitlab, `select count(*) from lifecycle.legacy_bridge_check()`},
		{gitlab, member(43)},
	} {
		_, err := read.conn.Exec(ctx, read.sql)
		if err != nil && !(errors.As(err, &pgErr) && (pgErr.Code == "42501" || pgErr.Code == "NS010") &&
			strings.Contains(pgErr.Message, "row-level security")) {
			t.Errorf("%s: %v, want it refused for the policy (42501, or NS010 naming the bridge) or done", read.sql, err)
		}
	}
	// The write-back of a membership the API adds, as lifecycle_bridge: the policy runs as it.
	mustExec(gitlab, fmt.Sprintf(`insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (%d, 44, 30)`, group))

	var roles []string
	if err := admin.QueryRow(ctx, `select coalesce(array_agg(distinct role::text order by role::text), '{}') from legacy.policy_runs`).Scan(&roles); err != nil {
		t.Fatal(err)
	}
	for _, r := range roles {
		if r == ownerUser {
			t.Errorf("GitLab's policy ran as the lifecycle's owner %s (roles it ran as: %v)", r, roles)
		}
	}
	if !contains(roles, "lifecycle_bridge") {
		t.Errorf("the write-back did not run the policy as lifecycle_bridge (roles it ran as: %v): the test would prove nothing", roles)
	}
}

// cmd/adopt reads GitLab's tables as the lifecycle's owner. With the roles apart (ownersApart, the
// owner a member of GitLab's role, which adding the bridges needs), a policy GitLab's role puts on
// namespaces and forces on its members would run at that read with the owner's rights; the
// adoption runs with row_security off, so it is refused (42501) before the policy runs. The
// policy's function counts its runs as the owner on a sequence, which no rollback takes back.
// On 063 the adoption ran it.
func TestAdoptionRefusesAPolicyOfTheApplicationsRoleRatherThanRunIt(t *testing.T) {
	ctx := context.Background()
	admin, owner, gitlab, ownerUser := ownersApart(t)
	ownerRole := pgx.Identifier{ownerUser}.Sanitize()
	for _, s := range []struct {
		conn *pgx.Conn
		sql  string
	}{
		// The owner may drop and create triggers on GitLab's tables only as a member of their owner,
		// which bypasses GitLab's policies unless GitLab's role forces them on its tables.
		{admin, "grant lifecycle_worker, " + pgx.Identifier{gitlab.Config().User}.Sanitize() + " to " + ownerRole},
		{gitlab, `grant usage on schema legacy to ` + ownerRole + `, lifecycle_bridge;
			grant select, insert, update, delete, trigger on all tables in schema legacy to ` + ownerRole + `;
			grant select, insert, update, delete on all tables in schema legacy to lifecycle_bridge;
			grant usage on all sequences in schema legacy to ` + ownerRole + `, lifecycle_bridge;
			insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id, created_at, updated_at)
			  values (1, 'acme', 'acme', null, 'Group', 20, 1, now(), now());
			insert into legacy.namespace_settings (namespace_id, created_at, updated_at) values (1, now(), now());
			create sequence legacy.runs_as_owner;
			grant usage on legacy.runs_as_owner to public;
			create function legacy.seen() returns boolean language plpgsql as $$
			begin
			  if current_user = ` + quoteLiteral(ownerUser) + ` then
			    perform nextval('legacy.runs_as_owner');
			  end if;
			  return true;
			end $$;
			alter table legacy.namespaces enable row level security;
			alter table legacy.namespaces force row level security;
			create policy seen on legacy.namespaces using (legacy.seen())`},
	} {
		if _, err := s.conn.Exec(ctx, s.sql); err != nil {
			t.Fatalf("%s: %v", s.sql, err)
		}
	}
	_, err := adopt.AdoptGitLab(ctx, owner, adopt.GitLab{Schema: "legacy", ActorID: 42, OrganizationID: 1})
	if err == nil || !strings.Contains(err.Error(), "row-level security") {
		t.Errorf("the adoption of tables with GitLab's policy: %v, want it refused for the policy", err)
	}
	var runs bool
	if err := admin.QueryRow(ctx, `select is_called from legacy.runs_as_owner`).Scan(&runs); err != nil {
		t.Fatal(err)
	}
	if runs {
		t.Error("GitLab's policy ran as the lifecycle's owner during the adoption")
	}
}
