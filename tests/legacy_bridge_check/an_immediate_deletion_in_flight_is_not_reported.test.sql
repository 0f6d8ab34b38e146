-- legacy_bridge_check does not list a project GitLab is deleting immediately (pending_delete
-- without a deletion mark): imported as deletion_in_progress with no deletion date, nothing the
-- legacy data says is missing from it. One marked for deletion is still asked for its mark.
begin;
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);
select lifecycle_test.create_gitlab_tables();
-- Two projects GitLab has, not imported yet (the tree bridges leave a row alone until its batch:
-- written here with their triggers off): site being deleted at once, blog marked and being deleted.
set local session_replication_role = replica;
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id) values
  (900011, 'Site', 'site', 900002, 'Project', 20, 1), (900012, 'Blog', 'blog', 900002, 'Project', 20, 1);
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id,
                             marked_for_deletion_at, marked_for_deletion_by_user_id, pending_delete) values
  (9101, 'Site', 'site', 900002, 900011, 20, 1, null, null, true),
  (9102, 'Blog', 'blog', 900002, 900012, 20, 1, current_date - 1, 42, true);
set local session_replication_role = origin;
-- Staged as docs/adoption.md and cmd/adopt stage them (internal/adopt/stage.sql).
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, visibility, state, state_changed_at,
                                         state_changed_by, preserved_state, created_at, legacy_parent_id)
select p.project_namespace_id, p.namespace_id, 'project', p.path, p.name, 'public', 'deletion_in_progress',
       p.marked_for_deletion_at::timestamptz, p.marked_for_deletion_by_user_id, null, '2020-01-01', n.parent_id
  from legacy.projects p join legacy.namespaces n on n.id = p.project_namespace_id
 where p.id in (9101, 9102);
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (2::bigint, 0::bigint)$$, 'both are imported');

select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'neither is listed');

set local session_replication_role = replica;
update legacy.projects set marked_for_deletion_at = null, marked_for_deletion_by_user_id = null where id = 9102;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900012::bigint, 'legacy.projects'::regclass, 'not deletion_scheduled'::text, 'deletion_in_progress'::text)$$,
                  'a deletion with a date whose legacy mark is gone is listed');

select * from finish();
rollback;
