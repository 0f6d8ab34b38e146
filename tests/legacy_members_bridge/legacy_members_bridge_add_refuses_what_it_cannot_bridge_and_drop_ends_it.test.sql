-- legacy_members_bridge_add takes GitLab's members and projects only (their columns, with types it
-- reads: NS010; a required column the write-back cannot fill: NS010), one members bridge per
-- database (NS010: one table holds every membership), namespace_types that are types which hold
-- others (NS010: a project's namespace is named by its Project rows; none, or an unknown type),
-- and puts its triggers on members and on
-- namespace_members; legacy_members_bridge_drop takes both away, and writes then carry nothing
-- either way. A column the trigger names cannot be dropped without CASCADE; another
-- it reads (created_at) dropped later refuses
-- a membership write with NS010 naming the bridge, not a raw SQLSTATE.
begin;
select plan(17);
select lifecycle_test.create_gitlab_tables();
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.namespaces', 'legacy.projects', array['group'])$$, 'NS010', null,
                 'a table without GitLab''s member columns: NS010');
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.namespaces', array['group'])$$, 'NS010', null,
                 'a projects table without project_namespace_id: NS010');
select throws_ok($$select lifecycle.legacy_members_bridge_add('lifecycle.namespace_members', 'legacy.projects', array['group'])$$, 'NS010', null,
                 'a table of the lifecycle: NS010');
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['project'])$$, 'NS010',
                 'namespace_types must name types that hold others', 'a type that holds no others (a project''s): NS010');
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group', 'team'])$$, 'NS010',
                 'namespace_types must name types that hold others', 'an unknown type: NS010');
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', '{}')$$, 'NS010',
                 'namespace_types must name types that hold others', 'no type: NS010');
-- The hint of a call without its tables shows a call that runs (with GitLab's tables put in).
do $$
declare
  hint text;
begin
  perform lifecycle.legacy_members_bridge_add(null, null, array['group']);
exception when sqlstate 'NS010' then
  get stacked diagnostics hint = pg_exception_hint;
  perform set_config('lifecycle_test.hint', hint, true);
end
$$;
savepoint hinted;
select lives_ok('select ' || replace(current_setting('lifecycle_test.hint'), 'schema.', 'legacy.'),
                'the hint for missing tables shows a call that bridges them');
rollback to savepoint hinted;
savepoint required;
alter table legacy.members add column lifecycle_test_required int not null;
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group'])$$, 'NS010', null,
                 'a required column of members the write-back does not fill and no default: NS010');
rollback to savepoint required;
select ok(lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']) > 0, 'GitLab''s members and projects are bridged');
select has_trigger('lifecycle', 'namespace_members', 'namespace_members_legacy', 'the write-back''s trigger is on namespace_members');
select throws_ok($$select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group'])$$, 'NS010', null,
                 'a second members bridge: NS010');
select is(lifecycle.legacy_members_bridge_drop('legacy.members'), 1, 'dropped');
select hasnt_trigger('legacy', 'members', 'lifecycle_legacy_members', 'its trigger is gone');
select hasnt_trigger('lifecycle', 'namespace_members', 'namespace_members_legacy', 'and the write-back''s');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 17, 30);
select is((select count(*) from legacy.members where user_id = 17), 0::bigint, 'without the bridge, the API''s memberships stay the lifecycle''s');
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
values (30, 900002, 'Namespace', 7, 3, 900002);
select is((select count(*) from lifecycle.namespace_members where user_id = 7), 0::bigint, 'without the bridge, nothing is carried');

select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
alter table legacy.members drop column created_at;
select throws_ok($$insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
                   values (30, 900002, 'Namespace', 8, 3, 900002)$$, 'NS010', null,
                 'a column of members dropped: a membership write is refused with NS010');
select * from finish();
rollback;
