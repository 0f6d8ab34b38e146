-- Apply one of ADR 001's events (lifecycle.events). Events that return "to where it was"
-- (restore, transfer_done, unmaintain, deletion_failed) read the state kept in state_metadata.
--
-- PL/pgSQL, not a SQL wrapper: a SQL function with SET clauses is parsed and planned on every call
-- (about 20 µs of every transition); PL/pgSQL keeps the plan of its one statement for the session.
-- Its rows are lifecycle.state_change rather than a TABLE (…), so that the parameters keep the
-- API's names (PL/pgSQL refuses a parameter and a result column of one name); callers see the same
-- columns.
create function lifecycle.namespace_event(
  namespace_id bigint,
  event text,
  actor_id bigint,
  metadata jsonb default '{}'
)
returns setof lifecycle.state_change
language plpgsql
-- Definer: the state column is not writable by the application role; the gate checks the caller.
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
begin
  return query
    select * from lifecycle.namespace_change_state(namespace_event.namespace_id, null, namespace_event.event,
                                                   namespace_event.actor_id, namespace_event.metadata);
end
$$;

comment on function lifecycle.namespace_event(bigint, text, bigint, jsonb) is
  'Apply an ADR 001 event (lifecycle.events). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';
