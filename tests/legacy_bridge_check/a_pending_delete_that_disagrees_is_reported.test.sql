-- legacy_bridge_check reports pending_delete disagreeing with the state both ways (written behind
-- the bridges' back, triggers off, as a superuser could): set on a project that is not being
-- deleted, and cleared on one that is.
begin;
select plan(2);
select lifecycle_test.create_gitlab_tables();
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
values (900011, 'Site', 'site', 900002, 'Project', 20, 1);
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id,
                             marked_for_deletion_at, marked_for_deletion_by_user_id, pending_delete)
values (9101, 'Site', 'site', 900002, 900011, 20, 1, current_date, 42, true);
select is((select lifecycle.state_name(state) from lifecycle.namespaces where id = 900011), 'deletion_in_progress',
          'site is being deleted, as its legacy row says');

set local session_replication_role = replica;
update legacy.projects set pending_delete = true where id = 9100;
update legacy.projects set pending_delete = false where id = 9101;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900010::bigint, 'legacy.projects'::regclass, 'deletion_in_progress'::text, 'ancestor_inherited'::text),
                           (900011, 'legacy.projects', 'not deletion_in_progress', 'deletion_in_progress')$$,
                  'each way: the table, what pending_delete says, the state');

select * from finish();
rollback;
