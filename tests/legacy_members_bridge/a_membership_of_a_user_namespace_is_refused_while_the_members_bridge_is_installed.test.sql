-- GitLab's members name groups (source_type Namespace: a GroupMember's source is a Group) and
-- projects, never a user's personal namespace, whose owner is its owner_id and no member. While
-- the members bridge is installed with GitLab's namespace_types (array['group']), the API's
-- membership of a user namespace is refused (NS010, with a hint) and nothing is written to
-- GitLab's members; a level change of one made before the bridge is refused too, its removal is
-- not. A project in the user namespace takes members as before (a ProjectMember row). A members
-- row naming the user namespace (one the write-back wrote before migration 060) is no
-- membership: not carried, and the check reports the user namespace's memberships the lifecycle
-- has. A bridge whose namespace_types name the user type holds them (a bridge installed before
-- 060 keeps that).
begin;
select plan(14);
select lifecycle_test.create_gitlab_tables();
-- A membership of alice's namespace (900005) made before the bridge.
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900005, 43, 40);
select lifecycle_test.bridge_gitlab_members();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;

select throws_ok($$set local role lifecycle_app;
                   insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900005, 7, 30)$$,
                 'NS010', 'alice is a namespace of type user: GitLab''s members cannot name it, so no membership of it while legacy.members is bridged',
                 'the API''s membership of a user namespace is refused while the members bridge is installed');
reset role;
select is((select count(*) from lifecycle.namespace_members where user_id = 7), 0::bigint, 'no membership');
select is((select count(*) from legacy.members where user_id = 7), 0::bigint, 'and no members row naming a personal namespace');
do $$
declare
  hint text;
begin
  insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900005, 7, 30);
exception when sqlstate 'NS010' then
  get stacked diagnostics hint = pg_exception_hint;
  perform set_config('lifecycle_test.hint', hint, true);
end
$$;
select matches(current_setting('lifecycle_test.hint'), '^Members of legacy\.members name only namespaces of type group and projects'' namespaces',
               'the hint says what GitLab''s members can name');
select throws_ok($$set local role lifecycle_app;
                   update lifecycle.namespace_members set access_level = 50 where namespace_id = 900005 and user_id = 43$$,
                 'NS010', null, 'a level change of one made before the bridge is refused too');
reset role;
select is(
  (select array[legacy_says, state] from lifecycle.legacy_bridge_check() where namespace_id = 900005),
  array['not member 43', 'member 43 at level 40'],
  'the check reports the user namespace''s membership the lifecycle has: GitLab has none');

-- A project in alice's namespace, as GitLab creates one (its namespaces row, then its projects
-- row; the tree bridges carry both): its members are ProjectMember rows.
set local role lifecycle_app;
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
values (900011, 'Notes', 'notes', 900005, 'Project', 20, 1);
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id)
values (9101, 'Notes', 'notes', 900005, 900011, 20, 1);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900011, 7, 30);
reset role;
select results_eq($$select source_type::text, source_id, access_level::int from legacy.members where user_id = 7$$,
                  $$values ('Project', 9101::bigint, 30)$$,
                  'a project in a user namespace takes members: written back as its ProjectMember row');

-- A members row naming alice's namespace, as the write-back wrote one before 060: no membership.
set local role lifecycle_app;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, member_namespace_id)
values (50, 900005, 'Namespace', 44, 3, 'GroupMember', 900005);
reset role;
select is((select count(*) from lifecycle.namespace_members where user_id = 44), 0::bigint,
          'GitLab''s row naming a user namespace is not carried');
select is((select held from lifecycle.legacy_members('legacy.members', 'legacy.projects', 44, 900005)), false,
          'lifecycle.legacy_members says the lifecycle cannot hold it (the import skips it)');
select is((select count(*) from lifecycle.legacy_bridge_check() where namespace_id = 900005), 1::bigint,
          'the check still reports only the lifecycle''s membership of the user namespace');

set local role lifecycle_app;
select lifecycle.namespace_member_remove(900005, 43);
reset role;
select is((select count(*) from lifecycle.namespace_members where namespace_id = 900005), 0::bigint, 'its removal is not refused');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'and the check is empty');

-- A bridge that names the user type (as one installed before 060 does) holds them.
select lifecycle.legacy_members_bridge_drop('legacy.members');
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group', 'user']);
set local role lifecycle_app;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900005, 45, 30);
reset role;
select results_eq($$select source_type::text, source_id, access_level::int from legacy.members where user_id = 45$$,
                  $$values ('Namespace', 900005::bigint, 30)$$,
                  'with namespace_types group and user, a membership of a user namespace is written back');
select is((select held from lifecycle.legacy_members('legacy.members', 'legacy.projects', 44, 900005)), true,
          'and a members row naming one is a membership');

select * from finish();
rollback;
