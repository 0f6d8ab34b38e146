-- Emit one lifecycle fact: a row of lifecycle.facts, the outbox, written in the transaction that
-- made the change, so it exists if and only if the change commits, and it stays in the database
-- (a promoted standby holds it too) until the syncer has recorded it (lifecycle.facts_record, which
-- deletes it in the transaction that writes its audit row). The row carries what the fan-out needs
-- after the change's rows may be gone: the namespace's id, path of ids and full path, the actor, the
-- details. Only this schema's functions write the table, so a fact needs no signature. Not granted
-- to anyone: the fact triggers (SECURITY DEFINER) call it. A state change's fact is written
-- beside it, with its history row in one statement (the gate, namespaces_state_gate); same columns.
-- PL/pgSQL: a SQL function with a SET clause would be planned on every call.
create or replace function lifecycle.fact_emit(
  action text,
  namespace_id bigint,
  traversal_ids bigint[],
  full_path text,
  actor_id bigint,
  details jsonb
)
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details)
  values (action, namespace_id, traversal_ids, full_path, actor_id, coalesce(details, '{}'));
end
$$;
