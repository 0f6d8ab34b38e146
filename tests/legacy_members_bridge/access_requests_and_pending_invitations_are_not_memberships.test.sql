-- As in GitLab (and as cmd/adopt imports them: lifecycle.legacy_members, one definition): an
-- access request (requested_at) is no membership until approved; an invitation by email (no
-- user_id, an invite_token) none until accepted (user_id set, invite_token cleared). A member
-- row on a namespace the lifecycle does not have, or at minimal access (5, a level it has not),
-- holds nothing and is not refused. Written as GitLab's role (lifecycle_app).
begin;
select plan(9);
select lifecycle_test.create_gitlab_tables();
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
grant usage on all sequences in schema legacy to lifecycle_app;
set local role lifecycle_app;

-- Members::RequestAccessService, then an owner approving it (Members::ApproveAccessRequestService).
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, requested_at, member_namespace_id)
values (30, 900002, 'Namespace', 7, 3, 'GroupMember', now(), 900002);
select is((select count(*) from lifecycle.namespace_members where user_id = 7), 0::bigint, 'an access request is no membership');
update legacy.members set requested_at = null, request_accepted_at = now() where user_id = 7;
select results_eq($$select namespace_id, access_level::int from lifecycle.namespace_members where user_id = 7$$,
                  $$values (900002::bigint, 30)$$, 'approved, it is one');

-- Members::InviteService by email, then the invitee accepting (Member#accept_invite!).
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, type, invite_email, invite_token,
                            created_at, member_namespace_id)
values (20, 9100, 'Project', null, 3, 'ProjectMember', 'bob@example.com', 'tok3n', now(), 900010);
select is((select count(*) from lifecycle.namespace_members where namespace_id = 900010), 0::bigint, 'a pending invitation is no membership');
update legacy.members set user_id = 8, invite_token = null, invite_accepted_at = now() where invite_email = 'bob@example.com';
select results_eq($$select namespace_id, access_level::int from lifecycle.namespace_members where user_id = 8$$,
                  $$values (900010::bigint, 20)$$, 'accepted, it is a membership of the project''s namespace');

-- An invitation to a known user not yet accepted: a user_id and a token.
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, invite_token, member_namespace_id)
values (30, 900001, 'Namespace', 9, 3, 'tok9', 900001);
select is((select count(*) from lifecycle.namespace_members where user_id = 9), 0::bigint, 'an invitation to a user not accepted yet is none');

-- Minimal access, and a namespace the lifecycle does not have: not refused, nothing held.
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
values (5, 900001, 'Namespace', 10, 3, 900001), (30, 999999, 'Namespace', 11, 3, 999999);
select is((select count(*) from lifecycle.namespace_members where user_id in (10, 11)), 0::bigint,
          'minimal access and an unknown namespace hold nothing, and GitLab''s write goes on');
-- Promoted from minimal access: a membership; back to minimal access: none again.
update legacy.members set access_level = 10 where user_id = 10;
select is((select access_level::int from lifecycle.namespace_members where user_id = 10), 10, 'promoted from minimal access, a guest');
update legacy.members set access_level = 5 where user_id = 10;
select is((select count(*) from lifecycle.namespace_members where user_id = 10), 0::bigint, 'back to minimal access, no membership');
reset role;

select results_eq($$select namespace_id, user_id, access_level::int from lifecycle.legacy_members('legacy.members', 'legacy.projects') where held
                    except select namespace_id, user_id, access_level from lifecycle.namespace_members$$,
                  $$select 1::bigint, 1::bigint, 1 where false$$, 'every membership the definition holds is the lifecycle''s');

select * from finish();
rollback;
