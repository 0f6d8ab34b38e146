-- A state change's fact, named by lifecycle.state_transitions.audit_action (archived, restored,
-- deletion_started, …), with the history row's event, actor, source and metadata. Everything the
-- fact needs about the namespace (its path of ids, its full path, the action and the state names)
-- is read in one statement.
create or replace function lifecycle.namespace_state_updates_facts()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
-- Seq scans off: the cached generic plan stays the index plan however small the table was when it
-- was made (see namespace_lock_path).
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
as $$
declare
  path_ids bigint[];
  full_path text;
  action text;
  from_name text;
  to_name text;
  emitted text;
begin
  select n.traversal_ids,
         (select pg_catalog.string_agg(a.path, '/' order by t.depth)
            from pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
            join lifecycle.namespaces a on a.id = t.id),
         tr.audit_action, f.name, t.name
    into path_ids, full_path, action, from_name, to_name
    from lifecycle.states f
    join lifecycle.states t on t.code = new.to_state
    left join lifecycle.state_transitions tr on tr.from_state = new.from_state and tr.to_state = new.to_state
    left join lifecycle.namespaces n on n.id = new.namespace_id
   where f.code = new.from_state;
  -- An assignment, not PERFORM (which would run a whole query to call it); fact_emit returns void.
  emitted := lifecycle.fact_emit(action, new.namespace_id, path_ids, full_path, new.actor_id,
    pg_catalog.jsonb_build_object('from_state', from_name, 'to_state', to_name, 'event', new.event,
                                  'source', new.source, 'metadata', new.metadata, 'state_update_id', new.id))::text;
  return null;
end
$$;

-- The import's history rows (source import) have no fact each: the import emits one per batch.
create or replace trigger namespace_state_updates_facts
  after insert on lifecycle.namespace_state_updates
  for each row when (new.source <> 'import') execute function lifecycle.namespace_state_updates_facts();
