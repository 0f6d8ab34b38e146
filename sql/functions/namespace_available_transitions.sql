-- For a UI: every state, and whether actor_id may move the namespace there now, or the error code
-- and reason that would refuse it. Asks transition_refusal, the same function the gate obeys, so
-- the answer cannot drift from what namespace_transition does. Takes no locks: the answer may be
-- stale by the time the user acts, and the transition itself decides.
create or replace function lifecycle.namespace_available_transitions(namespace_id bigint, actor_id bigint)
returns table (to_state text, allowed boolean, error_code text, reason text, hint text)
language plpgsql
stable
-- Definer: the rule functions are not granted to the application role.
security definer
set search_path to ''
as $$
#variable_conflict use_column
declare
  ns record;
begin
  select n.id, n.state, n.traversal_ids into ns
    from lifecycle.namespaces n
   where n.id = namespace_available_transitions.namespace_id;
  if not found then
    raise exception using errcode = 'NS004', message = 'namespace not found',
      detail = pg_catalog.format('namespace_id=%s', namespace_available_transitions.namespace_id),
      hint = 'Check the id; a hard-deleted namespace is gone for good.';
  end if;

  return query
    select s.name,
           s.code = ns.state or r.code is null,
           r.code,
           case when s.code = ns.state then 'already in this state (a no-op)' else r.message end,
           r.hint
      from lifecycle.states s
      left join lateral lifecycle.transition_refusal(ns.id, ns.traversal_ids, ns.state, s.code,
                                                     namespace_available_transitions.actor_id) r
        on s.code <> ns.state
     order by s.code;
end
$$;

comment on function lifecycle.namespace_available_transitions(bigint, bigint) is
  'Every state with allowed, or the error code, reason and hint that would refuse it (for UIs).';
