-- The backfill gives a project GitLab is deleting immediately (pending_delete without a mark,
-- written before the bridges spoke for it) deletion_in_progress with no deletion date, as the
-- import does, and one marked and being deleted its mark's date (not the time of the backfill);
-- legacy_bridge_check lists neither afterwards.
begin;
select plan(3);
select lifecycle_test.create_gitlab_tables();
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
values (900011, 'Site', 'site', 900002, 'Project', 20, 1);
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id)
values (9101, 'Site', 'site', 900002, 900011, 20, 1);
-- Written while the bridges did not speak for them (triggers off, as in the gap before an import).
set local session_replication_role = replica;
update legacy.projects set pending_delete = true where id = 9100;
update legacy.projects set pending_delete = true, marked_for_deletion_at = '2024-06-01', marked_for_deletion_by_user_id = 7
 where id = 9101;
set local session_replication_role = origin;

select results_eq($$select backfilled, refused from lifecycle.legacy_bridge_backfill()$$, $$values (2::bigint, 0::bigint)$$,
                  'both are backfilled');
select results_eq(
  $$select id, lifecycle.state_name(state), deletion_scheduled_at from lifecycle.namespaces where id in (900010, 900011) order by id$$,
  $$values (900010::bigint, 'deletion_in_progress'::text, null::timestamptz), (900011, 'deletion_in_progress', '2024-06-01'::timestamptz)$$,
  'no date for the immediate deletion, the mark''s for the marked one');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the check lists neither');

select * from finish();
rollback;
