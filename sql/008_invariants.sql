-- Invariants the database can be asked about (lifecycle.check_invariants), with a count of state
-- changes kept by the gate on each namespace, apart from the history rows, to compare them with.
alter table lifecycle.namespaces add column state_changes bigint not null default 0;
-- Namespaces that changed state before this migration: their history is what counted them.
update lifecycle.namespaces n set state_changes = h.rows
  from (select u.namespace_id, count(*) as rows from lifecycle.namespace_state_updates u group by 1) h
 where h.namespace_id = n.id;

{{ template "snapshots/008/namespaces_state_gate.sql" . }}
{{ template "snapshots/008/check_invariants.sql" . }}

revoke all on function lifecycle.check_invariants() from public;
grant execute on function lifecycle.check_invariants() to lifecycle_worker;

---- create above / drop below ----

drop function lifecycle.check_invariants();
{{ template "snapshots/003/namespaces_state_gate.sql" . }}
alter table lifecycle.namespaces drop column state_changes;
