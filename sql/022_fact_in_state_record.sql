-- A state change's fact is emitted by the state record (docs/design.md §6.2), which writes the
-- history row, instead of by a trigger on the history table that read the namespace, its path and
-- the state names again; and the API's answer takes its state names from the digest of
-- lifecycle.states (021) instead of joining the table twice. The same facts, history rows and
-- answers; one trigger and two lookups fewer per transition.

{{ template "snapshots/022/namespaces_state_record.sql" . }}
drop trigger namespace_state_updates_facts on lifecycle.namespace_state_updates;
drop function lifecycle.namespace_state_updates_facts();
{{ template "snapshots/022/namespace_change_state.sql" . }}

---- create above / drop below ----

{{ template "snapshots/020/namespace_change_state.sql" . }}
{{ template "snapshots/013/namespace_state_updates_facts.sql" . }}
revoke all on function lifecycle.namespace_state_updates_facts() from public;
{{ template "snapshots/019/namespaces_state_record.sql" . }}
