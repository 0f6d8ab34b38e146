-- Move a namespace to a state (docs/design.md §4). The matrix, the guards and authorization decide
-- (NS001, NS002, NS003, NS005); a same-state request succeeds with changed = false and writes no
-- history. A refused call changes nothing.
create function lifecycle.namespace_transition(
  namespace_id bigint,
  to_state text,
  actor_id bigint,
  metadata jsonb default '{}'
)
returns table (namespace_id bigint, from_state text, to_state text, effective_state text, changed boolean)
language sql
-- Definer: the state column is not writable by the application role; the gate checks the caller.
security definer
set search_path to ''
-- Bounded waits: a lock held elsewhere fails the call (SQLSTATE 55P03) rather than hanging it.
set lock_timeout to '5s'
as $$
  select c.namespace_id, c.from_state, c.to_state, c.effective_state, c.changed
    from lifecycle.namespace_change_state($1, $2, null, $3, $4) c
$$;

comment on function lifecycle.namespace_transition(bigint, text, bigint, jsonb) is
  'Move a namespace to a state (names from lifecycle.states, or active). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';
