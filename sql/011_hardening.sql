-- Hardening (docs/design.md §4, §5 and §8): operations own their in-progress states, every path
-- race ends in NS006, inputs are bounded, resolve works for the documented roles in linear time,
-- and a transfer below a less visible parent lowers the moved subtree instead of being refused.
--
--   * lifecycle.states.operation names the operation that owns a state: deletion_in_progress is
--     the hard delete's, transfer_in_progress the transfer's. Only that operation's own code path
--     (namespace_change_state's new operation argument) or a caller that may act as the system
--     leaves it (transition_refusal, NS005 otherwise, whatever the actor); leaving a transfer by
--     any way closes its accepted request (namespaces_state_record), whose row a change takes
--     first (namespace_lock). check_invariants reports both halves.
--   * INSERT takes the sibling-path lock too (namespaces_paths), escalating to one lock on all
--     sibling paths past 1,000 in a transaction (namespace_lock_sibling_path).
--   * Limits, NS010: depth (namespace_max_depth, 100), name (name_refusal, 1–255 characters),
--     webhook URL, secret and actions (webhooks_validate); paths (100) and metadata (16,384
--     bytes) were bounded already. Redirects are found through a hash index, which has no row
--     size limit for the longest full paths.
--   * What the application writes directly is refused with documented codes, not raw constraint
--     violations: an unknown type or an organization with a parent (NS010), an unknown visibility
--     (NS010), a webhook or membership of a missing namespace (NS004), a bad access level (NS010).
--   * namespace_hard_delete_all could not run: a procedure with a SET clause may not COMMIT.
--   * namespace_resolve: refuses paths past the depth limit, one probe for every prefix at once;
--     no longer calls namespace_walk, which the application role could not execute.

alter table lifecycle.states add column operation text;
comment on column lifecycle.states.operation is
  'The operation that owns this state: only its own code path, or a worker or superuser, moves a namespace out of it.';
update lifecycle.states set operation = 'hard_delete' where code = 4;
update lifecycle.states set operation = 'transfer' where code = 5;

{{ template "functions/namespace_max_depth.sql" . }}
{{ template "snapshots/011/name_refusal.sql" . }}
{{ template "snapshots/011/namespace_lock_sibling_path.sql" . }}
{{ template "snapshots/011/namespaces_paths.sql" . }}
{{ template "snapshots/011/namespaces_visibility.sql" . }}
{{ template "snapshots/011/namespaces_facts.sql" . }}
{{ template "snapshots/011/namespaces_traversal_ids_maintain.sql" . }}
{{ template "snapshots/011/transfer_target_refusal.sql" . }}
{{ template "snapshots/011/transition_refusal.sql" . }}
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb);
{{ template "snapshots/011/namespace_change_state.sql" . }}
{{ template "snapshots/011/namespace_lock.sql" . }}
{{ template "snapshots/011/namespaces_state_record.sql" . }}
{{ template "snapshots/011/namespace_transfer_execute.sql" . }}
{{ template "snapshots/011/check_invariants.sql" . }}
{{ template "snapshots/011/namespace_resolve.sql" . }}
drop function lifecycle.namespace_walk(text[]);
{{ template "snapshots/011/webhooks_validate.sql" . }}
{{ template "triggers/namespace_members_validate.sql" . }}
-- Its SET clause made every CALL fail at its first COMMIT.
{{ template "functions/namespace_hard_delete_all.sql" . }}

-- Accepted (sql/README.md, Migrations without stalls): one row per rename or transfer, not per
-- namespace, and the functions above change with the index in one transaction; the index is rebuilt
-- under ACCESS EXCLUSIVE on namespace_redirects (namespace_resolve waits for the build).
-- squawk-ignore require-concurrent-index-deletion
drop index lifecycle.namespace_redirects_old_full_path_idx;
-- squawk-ignore require-concurrent-index-creation
create index namespace_redirects_old_full_path_idx on lifecycle.namespace_redirects using hash (old_full_path);

revoke all on all functions in schema lifecycle from public;
grant execute on function lifecycle.namespace_max_depth() to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

-- Accepted (sql/README.md, Migrations without stalls): as above.
-- squawk-ignore require-concurrent-index-deletion
drop index lifecycle.namespace_redirects_old_full_path_idx;
-- squawk-ignore require-concurrent-index-creation
create index namespace_redirects_old_full_path_idx on lifecycle.namespace_redirects (old_full_path, id);

{{ template "snapshots/004/namespace_hard_delete_all.sql" . }}
drop trigger namespace_members_validate on lifecycle.namespace_members;
drop function lifecycle.namespace_members_validate();
drop trigger webhooks_validate on lifecycle.webhooks;
drop function lifecycle.webhooks_validate();
{{ template "snapshots/003/namespace_walk.sql" . }}
{{ template "snapshots/003/namespace_resolve.sql" . }}
{{ template "snapshots/008/check_invariants.sql" . }}
{{ template "snapshots/004/namespace_transfer_execute.sql" . }}
{{ template "snapshots/010/namespaces_state_record.sql" . }}
{{ template "snapshots/010/namespace_lock.sql" . }}
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text);
{{ template "snapshots/010/namespace_change_state.sql" . }}
{{ template "snapshots/010/transition_refusal.sql" . }}
{{ template "snapshots/004/transfer_target_refusal.sql" . }}
{{ template "snapshots/001/namespaces_traversal_ids_maintain.sql" . }}
{{ template "snapshots/006/namespaces_facts.sql" . }}
{{ template "snapshots/003/namespaces_visibility.sql" . }}
{{ template "snapshots/003/namespaces_paths.sql" . }}
{{ template "snapshots/003/namespace_lock_sibling_path.sql" . }}
drop function lifecycle.name_refusal(text);
drop function lifecycle.namespace_max_depth();
alter table lifecycle.states drop column operation;

revoke all on all functions in schema lifecycle from public;
