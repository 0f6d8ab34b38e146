-- GitLab's "delete immediately" (docs/design.md §10.2): pending_delete set on a project not marked
-- for deletion reaches deletion_in_progress by way of deletion_scheduled (the matrix has no step
-- from active), two changes the gate judges, and the write-back marks the project as GitLab's data
-- of a running deletion says; its failure handler (pending_delete cleared) requeues it as
-- deletion_scheduled, and the legacy data and the state agree at each step.
begin;
select plan(5);
select lifecycle_test.create_gitlab_tables();

update legacy.projects set pending_delete = true, updated_at = now() where id = 9100;
select results_eq($$select from_state::int, to_state::int, source from lifecycle.namespace_state_updates where namespace_id = 900010 order by id$$,
                  $$values (0, 2, 'bridge'), (2, 4, 'bridge')$$, 'scheduled, then started, each through the gate');
select results_eq($$select marked_for_deletion_at, marked_for_deletion_by_user_id from legacy.projects where id = 9100$$,
                  $$values (current_date, 42::bigint)$$, 'the project is marked, by the bridge''s user');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the legacy data and the state agree');
update legacy.projects set delete_error = 'Failed to remove project repository', pending_delete = false, updated_at = now() where id = 9100;
select is((select lifecycle.state_name(state) from lifecycle.namespaces where id = 900010), 'deletion_scheduled',
          'the failure handler requeues the deletion');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'and they still agree');

select * from finish();
rollback;
