-- A membership the API adds for a user with a pending access request on the same group or project
-- (GitLab's members row with requested_at) is written back as GitLab's Members::CreatorService
-- makes it: the request it finds among members_and_requesters approved
-- (Members::ApproveAccessRequestService, Member#accept_request: the level given, requested_at
-- cleared, request_accepted_at set), not a second row of the user on the source, which GitLab's
-- uniqueness of a user per source never has. One row afterwards, one member_added fact, the check
-- empty. A request on another source stays a request. Approving is an UPDATE of GitLab's table: a
-- role that may insert members rows but not update them is refused NS005, and nothing changes.
begin;
select plan(12);
select lifecycle_test.create_gitlab_tables();
select lifecycle_test.bridge_gitlab_members();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;

-- Members::RequestAccessService, as GitLab's role: user 7 asks for platform, user 8 for project
-- docs, user 9 for acme.
set local role lifecycle_app;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, created_at, updated_at,
                            requested_at, member_namespace_id) values
  (30, 900002, 'Namespace', 7, 3, 'GroupMember', '2026-01-02', '2026-01-02', '2026-01-02', 900002),
  (30, 9100, 'Project', 8, 3, 'ProjectMember', '2026-01-02', '2026-01-02', '2026-01-02', 900010),
  (30, 900001, 'Namespace', 9, 3, 'GroupMember', '2026-01-02', '2026-01-02', '2026-01-02', 900001);
-- The product adds them: 7 a maintainer of platform, 8 a reporter of docs, 9 a developer of
-- platform (not where 9 asked).
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 7, 40);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900010, 8, 20);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 9, 30);
reset role;

select is((select count(*) from legacy.members where user_id = 7), 1::bigint, 'a group''s request and the API''s membership: one row of the user');
select results_eq(
  $$select source_type::text, source_id, access_level, requested_at is null, request_accepted_at is not null,
           updated_at > '2026-01-02', created_at = '2026-01-02', type::text
      from legacy.members where user_id = 7$$,
  $$values ('Namespace', 900002::bigint, 40, true, true, true, true, 'GroupMember')$$,
  'the request approved at the level given, as Member#accept_request (its creation time kept)');
select is((select count(*) from legacy.members where user_id = 8), 1::bigint, 'a project''s request: one row of the user');
select results_eq(
  $$select source_type::text, source_id, access_level, requested_at is null, request_accepted_at is not null
      from legacy.members where user_id = 8$$,
  $$values ('Project', 9100::bigint, 20, true, true)$$,
  'the project''s request approved');
select results_eq(
  $$select source_id, access_level, requested_at is not null from legacy.members where user_id = 9 order by source_id$$,
  $$values (900001::bigint, 30, true), (900002::bigint, 30, false)$$,
  'a request on another source stays one; the membership is a row of its own');
select results_eq(
  $$select namespace_id, user_id, access_level::int from lifecycle.namespace_members where user_id in (7, 8, 9) order by 2$$,
  $$values (900002::bigint, 7::bigint, 40), (900010::bigint, 8::bigint, 20), (900002::bigint, 9::bigint, 30)$$,
  'the lifecycle holds the three memberships as the API wrote them');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is empty');
select results_eq(
  $$select action, namespace_id, (details ->> 'user_id')::int from lifecycle.facts
     where action like 'member_%' and details ->> 'user_id' in ('7', '8', '9') order by id$$,
  $$values ('member_added', 900002::bigint, 7), ('member_added', 900010::bigint, 8), ('member_added', 900002::bigint, 9)$$,
  'one fact each: the approval GitLab''s trigger sees carries nothing back');

-- Approving is an UPDATE of members: a role that may only insert is refused, nothing changes.
create role lifecycle_test_inserter;
grant lifecycle_app to lifecycle_test_inserter;
grant usage on schema legacy to lifecycle_test_inserter;
revoke update on legacy.members from lifecycle_app;
grant select, insert on legacy.members to lifecycle_test_inserter;
set local session_replication_role = replica;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, requested_at, member_namespace_id)
values (30, 900002, 'Namespace', 11, 3, now(), 900002);
set local session_replication_role = origin;
select throws_ok($$set local role lifecycle_test_inserter;
                   insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 11, 30)$$,
                 'NS005', null, 'a role that may not update members cannot approve a request through the API');
reset role;
select is((select count(*) from lifecycle.namespace_members where user_id = 11), 0::bigint, 'no membership');
select results_eq($$select requested_at is not null from legacy.members where user_id = 11$$, $$values (true)$$,
                  'and the request is still one');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is still empty');

select * from finish();
rollback;
