-- Ancestors held with advisory locks instead of row locks (docs/design.md §3.5): a change below a
-- namespace took every ancestor FOR SHARE, which writes each ancestor row (a WAL record, and a
-- multixact when changes share an ancestor: every change in an organization shares its root) on
-- every change. Now a change holds its ancestors' keys shared (namespace_lock_path, transaction
-- level, lifecycle.namespace_lock_key) and a change of a namespace holds its own key exclusively
-- after its row (namespace_lock; the gate for a raw UPDATE of state; namespace_transfer_execute
-- for a move), so the same changes wait for each other as before and nothing is written for the
-- wait. Past 500 keys a transaction takes one key of all namespaces exclusively instead (the lock
-- table is bounded). An INSERT keeps row locks on its parent's path (namespace_lock_path_rows): a bulk INSERT
-- would hold one advisory lock per distinct ancestor.

{{ template "snapshots/017/namespace_lock_key.sql" . }}
-- Its new argument (shared or exclusive) makes it another function.
drop function lifecycle.namespace_lock_path(bigint[]);
{{ template "snapshots/017/namespace_lock_path.sql" . }}
{{ template "snapshots/017/namespace_lock_path_rows.sql" . }}
{{ template "snapshots/017/namespace_lock.sql" . }}
{{ template "snapshots/017/namespace_transfer_execute.sql" . }}
{{ template "snapshots/017/namespaces_state_gate.sql" . }}
{{ template "snapshots/017/namespaces_traversal_ids_maintain.sql" . }}

revoke all on function lifecycle.namespace_lock_key(bigint), lifecycle.namespace_lock_path(bigint[], boolean),
  lifecycle.namespace_lock_path_rows(bigint[]) from public;

---- create above / drop below ----

{{ template "snapshots/013/namespaces_traversal_ids_maintain.sql" . }}
{{ template "snapshots/014/namespaces_state_gate.sql" . }}
{{ template "snapshots/011/namespace_transfer_execute.sql" . }}
{{ template "snapshots/011/namespace_lock.sql" . }}
drop function lifecycle.namespace_lock_path(bigint[], boolean);
{{ template "snapshots/010/namespace_lock_path.sql" . }}
revoke all on function lifecycle.namespace_lock_path(bigint[]) from public;
drop function lifecycle.namespace_lock_path_rows(bigint[]);
drop function lifecycle.namespace_lock_key(bigint);
