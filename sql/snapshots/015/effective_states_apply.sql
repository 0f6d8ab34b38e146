-- Bring lifecycle.effective_states up to date after recorded facts (docs/design.md §4): the
-- syncer passes the facts of the transactions it recorded, and only what they can have changed is
-- computed again, from the committed tree: the subtree of a namespace whose state changed, that
-- was created, renamed or moved (namespace_effective_states_below, O(subtree)); the namespaces an
-- import batch wrote (its id range). Rows of deleted namespaces go with them, in the deleting
-- transaction (namespaces_effective_states). A TRUNCATE of the tree, or a backfill, rebuilds the table
-- whole. Which facts matter is decided here, in one place: a fact of any other kind changes
-- nothing. The cost follows the changes, not the tree; the transitions themselves pay nothing.
-- Returns how many rows were written or deleted.
create function lifecycle.effective_states_apply(facts jsonb[])
returns bigint
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
declare
  roots bigint[];
  imported record;
  written bigint := 0;
  n bigint;
begin
  -- One writer at a time (the syncer's update, a rebuild, a DELETE of namespaces: step 6 of the
  -- global lock order, namespace_lock_path): each statement below reads the tree after the lock,
  -- so no row is written from a tree older than another writer's. Readers are not blocked.
  lock table lifecycle.effective_states in share row exclusive mode;
  if exists (select from pg_catalog.unnest(facts) f
              where (f ->> 'action' = 'table_truncated' and f -> 'details' -> 'tables' ? 'lifecycle.namespaces')
                 or (f ->> 'action' = 'namespaces_imported' and (f -> 'details' ->> 'backfill')::boolean)) then
    perform lifecycle.effective_states_refresh();
    return -1;
  end if;

  -- The namespaces whose subtree may read otherwise now: any change of state (a history row's
  -- fact: the action its transition names, with from_state and to_state), a creation, a rename, a
  -- finished move.
  select pg_catalog.array_agg(distinct (f ->> 'namespace_id')::bigint) into roots
    from pg_catalog.unnest(facts) f
   where f ->> 'namespace_id' is not null
     and (f ->> 'action' in ('namespace_created', 'renamed', 'transfer_completed')
          or f -> 'details' ? 'to_state'
          or f ->> 'action' in (select t.audit_action from lifecycle.state_transitions t));
  written := lifecycle.effective_states_write(roots);

  -- Namespaces an import batch wrote: the ids of its range that have no row yet.
  for imported in select (f -> 'details' ->> 'first_id')::bigint as first_id, (f -> 'details' ->> 'last_id')::bigint as last_id
                    from pg_catalog.unnest(facts) f
                   where f ->> 'action' = 'namespaces_imported' and f -> 'details' ? 'first_id' loop
    insert into lifecycle.effective_states
    select n.id, s.state, s.effective_state, s.inherited_from_namespace_id, s.self_or_ancestor_archived,
           s.self_or_ancestor_deletion_scheduled, s.read_only, lifecycle.namespace_full_path(n.id)
      from lifecycle.namespaces n
     cross join lateral lifecycle.namespace_effective_state(n.id) s
     where n.id between imported.first_id and imported.last_id
       and not exists (select from lifecycle.effective_states e where e.namespace_id = n.id)
    on conflict (namespace_id) do nothing;
    get diagnostics n = row_count;
    written := written + n;
  end loop;

  return written;
end
$$;
