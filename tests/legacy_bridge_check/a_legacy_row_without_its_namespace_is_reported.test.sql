-- legacy_bridge_check reports a legacy row whose namespace the lifecycle has not: one it
-- hard-deleted while the row stayed (the write-back off, as a superuser could), one staged and
-- rejected by the import, and one never staged (written with the tree bridges' triggers off).
begin;
select plan(2);
select lifecycle_test.create_gitlab_tables();
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'in step');

-- alice's namespace is hard-deleted in the lifecycle (its snapshot kept), GitLab's row left behind
-- (every trigger off, as a superuser could).
set local session_replication_role = replica;
insert into lifecycle.deleted_namespaces (namespace_id, full_path, type, parent_id, traversal_ids, descendant_count)
select id, path, type, parent_id, traversal_ids, 0 from lifecycle.namespaces where id = 900005;
delete from lifecycle.namespace_members where namespace_id = 900005;
delete from lifecycle.namespace_details where namespace_id = 900005;
delete from lifecycle.namespaces where id = 900005;
set local session_replication_role = origin;
-- Two groups GitLab made while the tree bridge was off: one staged and rejected, one not staged.
set local session_replication_role = replica;
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id) values
  (900020, 'Ops', 'ops', 900001, 'Group', 20, 1), (900021, 'Lab', 'lab', 900001, 'Group', 20, 1);
set local session_replication_role = origin;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, reject_code, reject_reason)
values (900020, 900001, 'group', 'ops', 'Ops', 'NS010', 'as the import left it');

select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900005::bigint, 'legacy.namespaces'::regclass, 'a row'::text, 'hard_deleted'::text),
                           (900020, 'legacy.namespaces', 'a row', 'staged, rejected NS010'),
                           (900021, 'legacy.namespaces', 'a row', 'no namespace')$$,
                  'each row without its namespace: deleted in the lifecycle, staged (with its verdict), or unknown to it');

select * from finish();
rollback;
