-- Move a namespace to a state (docs/design.md §4). The matrix, the guards and authorization decide
-- (NS001, NS002, NS003, NS005); a same-state request succeeds with changed = false and writes no
-- history. A refused call changes nothing.
--
-- PL/pgSQL, not a SQL wrapper: a SQL function with SET clauses is parsed and planned on every call
-- (about 20 µs of every transition); PL/pgSQL keeps the plan of its one statement for the session.
-- Its rows are lifecycle.state_change rather than a TABLE (…), so that the parameters keep the
-- API's names (PL/pgSQL refuses a parameter and a result column of one name); callers see the same
-- columns.
create or replace function lifecycle.namespace_transition(
  namespace_id bigint,
  to_state text,
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
  -- RETURN NEXT of an expression, not RETURN QUERY: no statement of its own (namespace_change_state
  -- answers one row).
  return next lifecycle.namespace_change_state(namespace_transition.namespace_id, namespace_transition.to_state, null,
                                                 namespace_transition.actor_id, namespace_transition.metadata);
end
$$;

comment on function lifecycle.namespace_transition(bigint, text, bigint, jsonb) is
  'Move a namespace to a state (names from lifecycle.states, or active). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';
