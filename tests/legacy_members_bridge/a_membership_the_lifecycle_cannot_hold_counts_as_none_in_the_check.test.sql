-- legacy_members_check counts only the memberships the lifecycle can hold (legacy_members' held):
-- GitLab's minimal access (level 5) beside a lifecycle membership of the same user and namespace
-- is reported as GitLab having none; a GitLab membership on a namespace the lifecycle lacks is no
-- divergence of memberships (the tree's check reports the namespace), nor one at level 5 alone.
begin;
select plan(2);
select lifecycle_test.create_gitlab_tables();
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
-- Behind the bridge's back (its trigger off for these writes).
set local session_replication_role = replica;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
values (5, 900002, 'Namespace', 9, 3, 900002),        -- minimal access; the lifecycle says 20
       (5, 900005, 'Namespace', 10, 3, 900005),       -- minimal access; the lifecycle has none
       (30, 999999, 'Namespace', 11, 3, 999999);      -- a namespace the lifecycle lacks
-- and the fixture's memberships, as the lifecycle has them
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
select access_level, namespace_id, 'Namespace', user_id, 3, namespace_id from lifecycle.namespace_members;
-- The lifecycle's membership behind the bridge's back too: carried back (047), it would set
-- GitLab's row to its level, and there would be no divergence to report.
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 9, 20);
set local session_replication_role = origin;
set local role lifecycle_worker;
select results_eq($$select namespace_id, source::text, legacy_says, state from lifecycle.legacy_members_check()$$,
                  $$values (900002::bigint, 'legacy.members', 'not member 9', 'member 9 at level 20')$$,
                  'the lifecycle''s membership, against none');
reset role;
delete from lifecycle.namespace_members where namespace_id = 900002 and user_id = 9;
select is_empty($$select * from lifecycle.legacy_members_check()$$, 'what the lifecycle cannot hold, alone: empty');
select * from finish();
rollback;
