-- GitLab's members -> lifecycle.namespace_members (docs/adoption.md, Memberships), as GitLab's
-- role (lifecycle_app) writes them: a group member on the group, a project member on the project's
-- namespace (projects.project_namespace_id), a level change, a removal; each carried in the same
-- statement, audited and notified (member_added, member_changed, member_removed), the check empty
-- after each. GitLab's other updates of a member row carry nothing.
begin;
select plan(12);
select lifecycle_test.create_gitlab_tables();
select lifecycle_test.bridge_gitlab_members();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'GitLab and the lifecycle agree to begin with');

set local role lifecycle_app;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, created_at, member_namespace_id)
values (30, 900002, 'Namespace', 7, 3, 'GroupMember', now(), 900002);
reset role;
select results_eq($$select access_level::int from lifecycle.namespace_members where namespace_id = 900002 and user_id = 7$$,
                  $$values (30)$$, 'a group member is a member of the group');

set local role lifecycle_app;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, created_at, member_namespace_id)
values (20, 9100, 'Project', 8, 3, 'ProjectMember', now(), 900010);
reset role;
select results_eq($$select access_level::int from lifecycle.namespace_members where namespace_id = 900010 and user_id = 8$$,
                  $$values (20)$$, 'a project member is a member of the project''s namespace');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is empty after both');

set local role lifecycle_app;
update legacy.members set access_level = 40, updated_at = now() where source_id = 9100 and user_id = 8;
reset role;
select results_eq($$select access_level::int from lifecycle.namespace_members where namespace_id = 900010 and user_id = 8$$,
                  $$values (40)$$, 'a level change changes the level');

set local role lifecycle_app;
update legacy.members set notification_level = 2, updated_at = now() where source_id = 9100 and user_id = 8;
reset role;
select is((select count(*) from lifecycle.facts where action like 'member_%' and namespace_id = 900010), 2::bigint,
          'an update of another column carries nothing');

set local role lifecycle_app;
delete from legacy.members where source_id = 900002 and source_type = 'Namespace' and user_id = 7;
reset role;
select is((select count(*) from lifecycle.namespace_members where namespace_id = 900002 and user_id = 7), 0::bigint,
          'a removal removes the membership');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is empty after the change and the removal');

select results_eq($$select action, namespace_id, (details ->> 'user_id')::int, (details ->> 'access_level')::int
                      from lifecycle.facts where action like 'member_%' and details ->> 'user_id' in ('7', '8') order by id$$,
                  $$values ('member_added', 900002::bigint, 7, 30), ('member_added', 900010::bigint, 8, 20),
                           ('member_changed', 900010::bigint, 8, 40), ('member_removed', 900002::bigint, 7, 30)$$,
                  'each change is a fact, as through the API: audited and notified');

-- A rolled-back GitLab statement leaves nothing: it is one transaction.
savepoint before;
set local role lifecycle_app;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
values (10, 900002, 'Namespace', 9, 3, 900002);
reset role;
select is((select count(*) from lifecycle.namespace_members where user_id = 9), 1::bigint, 'carried inside the transaction');
rollback to savepoint before;
select is((select count(*) from lifecycle.namespace_members where user_id = 9), 0::bigint, 'and gone with it');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the invariants hold');

select * from finish();
rollback;
