-- A namespace hard-deleted through the API (the sweeper's lifecycle_worker, which has no right on
-- GitLab's members) ends its memberships (the foreign key's cascade); the members bridge takes
-- GitLab's member rows with it, group and project alike, as the tree bridge takes the namespace's
-- rows: that deletion was authorised, so no NS005. Access requests stay (no membership).
begin;
select plan(4);
select lifecycle_test.create_gitlab_tables();
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
set local session_replication_role = replica;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id, requested_at)
values (50, 900001, 'Namespace', 42, 3, 900001, null),
       (30, 900002, 'Namespace', 7, 3, 900002, null), (20, 9100, 'Project', 8, 3, 900010, null),
       (30, 900002, 'Namespace', 9, 3, 900002, now());
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (900002, 7, 30), (900010, 8, 20);
set local session_replication_role = origin;
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'GitLab and the lifecycle agree to begin with');

update legacy.namespace_settings set archived = false where namespace_id = 900002;
select lifecycle.namespace_event(900002, 'schedule_deletion', 42);
select lifecycle.namespace_event(900002, 'deletion_start', 42);
set local role lifecycle_worker;
select lifecycle.namespace_hard_delete(900002, null);
reset role;
select results_eq($$select source_type::text, source_id, user_id from legacy.members order by id$$,
                  $$values ('Namespace', 900001::bigint, 42::bigint),
                           ('Namespace', 900002::bigint, 9::bigint)$$,
                  'the group''s and its project''s member rows went with them; the access request stayed');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check is empty');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the invariants hold');
select * from finish();
rollback;
