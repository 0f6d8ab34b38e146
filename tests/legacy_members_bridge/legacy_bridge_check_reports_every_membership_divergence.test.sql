-- legacy_bridge_check() reports, beside the states and in their form, every membership GitLab's
-- members table and lifecycle.namespace_members disagree on (legacy_members_check): one GitLab has
-- and the lifecycle has not, one the lifecycle has and GitLab has not, a level that differs. Not
-- the rows that are no memberships (requests, invitations), nor those the lifecycle cannot hold.
-- Without a members bridge it says nothing of memberships. Callable by lifecycle_worker.
begin;
select plan(4);
select lifecycle_test.create_gitlab_tables();
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'no members bridge: memberships are not compared');
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
-- Behind the bridge's back (its triggers off for these writes, both ways).
set local session_replication_role = replica;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, requested_at, invite_token, member_namespace_id)
values (40, 900001, 'Namespace', 42, 3, null, null, 900001),   -- the lifecycle says 50
       (30, 9100, 'Project', 7, 3, null, null, 900010),        -- the lifecycle has none
       (30, 900002, 'Namespace', 8, 3, now(), null, 900002),   -- an access request
       (30, 900002, 'Namespace', null, 3, null, 'tok', 900002), -- an invitation
       (5, 900002, 'Namespace', 9, 3, null, null, 900002);      -- minimal access
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 12, 20);  -- GitLab has none
set local session_replication_role = origin;
set local role lifecycle_worker;
select results_eq($$select namespace_id, source::text, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900001::bigint, 'legacy.members', 'member 42 at level 40', 'member 42 at level 50'),
                           (900002::bigint, 'legacy.members', 'not member 12', 'member 12 at level 20'),
                           (900010::bigint, 'legacy.members', 'member 7 at level 30', 'not member 7')$$,
                  'each divergence, once, naming the members table');
select bag_eq($$select * from lifecycle.legacy_members_check()$$, $$select * from lifecycle.legacy_bridge_check()$$,
                  'the same rows as legacy_members_check');
reset role;
update legacy.members set access_level = 50 where user_id = 42 and source_id = 900001;
update legacy.members set access_level = 30 where user_id = 7;
delete from lifecycle.namespace_members where user_id in (12);
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'brought in step through the bridge: empty');
select * from finish();
rollback;
