-- lifecycle.namespace_members -> GitLab's members (docs/adoption.md, Memberships in step), as the
-- product's API writes memberships (lifecycle_app, granted GitLab's table as GitLab's role is): a
-- member of a group becomes a GroupMember row on the Namespace, a member of a project's namespace
-- a ProjectMember row on the Project (projects.project_namespace_id), with the columns GitLab
-- requires filled as GitLab fills them for a direct member; a level change changes the row, a
-- removal deletes it; each in the same transaction, audited once (no loop through GitLab's
-- trigger), the checks empty after each.
begin;
select plan(14);
select lifecycle_test.create_gitlab_tables();
select lifecycle_test.bridge_gitlab_members();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'GitLab and the lifecycle agree to begin with');

set local role lifecycle_app;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 7, 30);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900010, 8, 20);
reset role;
select results_eq(
  $$select source_type::text, source_id, access_level, notification_level, type::text, member_namespace_id,
           created_at is not null and updated_at is not null, requested_at is null and invite_token is null,
           state::int, ldap, override
      from legacy.members where user_id = 7$$,
  $$values ('Namespace', 900002::bigint, 30, 3, 'GroupMember', 900002::bigint, true, true, 0, false, false)$$,
  'a member of a group: a GroupMember row on the Namespace, as GitLab writes a direct member');
select results_eq(
  $$select source_type::text, source_id, access_level, notification_level, type::text, member_namespace_id
      from legacy.members where user_id = 8$$,
  $$values ('Project', 9100::bigint, 20, 3, 'ProjectMember', 900010::bigint)$$,
  'a member of a project''s namespace: a ProjectMember row on the project');
select ok((select abs(extract(epoch from m.created_at - (l.created_at at time zone 'UTC'))) < 1
             from legacy.members m join lifecycle.namespace_members l on l.user_id = m.user_id and l.namespace_id = 900002
            where m.user_id = 7),
          'created_at is the membership''s, in UTC as Rails writes it');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is empty after both');

set local role lifecycle_app;
update lifecycle.namespace_members set access_level = 40, updated_at = now() where namespace_id = 900010 and user_id = 8;
reset role;
select results_eq($$select access_level from legacy.members where user_id = 8$$, $$values (40)$$,
                  'a level change changes GitLab''s row');
select is((select count(*) from legacy.members where user_id = 8), 1::bigint, 'and makes no other');

set local role lifecycle_app;
select lifecycle.namespace_member_remove(900002, 7);
reset role;
select is((select count(*) from legacy.members where user_id = 7), 0::bigint, 'a removal deletes GitLab''s row');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is empty after the change and the removal');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the invariants hold');

select results_eq($$select action, namespace_id, (details ->> 'user_id')::int, (details ->> 'access_level')::int
                      from lifecycle.facts where action like 'member_%' and details ->> 'user_id' in ('7', '8') order by id$$,
                  $$values ('member_added', 900002::bigint, 7, 30), ('member_added', 900010::bigint, 8, 20),
                           ('member_changed', 900010::bigint, 8, 40), ('member_removed', 900002::bigint, 7, 30)$$,
                  'each change is one fact: GitLab''s trigger carries the written row nothing back');

-- A membership GitLab has rows of already (here a second one, behind the bridge's back) has its
-- rows' levels set, not another row added.
set local session_replication_role = replica;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
values (10, 900002, 'Namespace', 9, 3, 900002);
set local session_replication_role = origin;
set local role lifecycle_app;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 9, 20);
reset role;
select results_eq($$select access_level from legacy.members where user_id = 9$$, $$values (20)$$,
                  'a pair GitLab has a row of: the row''s level set');

-- A rolled-back API write leaves nothing: it is one transaction.
savepoint before;
set local role lifecycle_app;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 11, 10);
reset role;
select is((select count(*) from legacy.members where user_id = 11), 1::bigint, 'written inside the transaction');
rollback to savepoint before;
select is((select count(*) from legacy.members where user_id = 11), 0::bigint, 'and gone with it');

select * from finish();
rollback;
