-- Bring lifecycle.effective_states up to date with the facts committed since the last update: those
-- still in the outbox (lifecycle.facts; marked applied, so a change shows without waiting for the
-- audit rows of a burst committed before it), and those recorded before an update saw them there
-- (the rows of lifecycle.effective_states_pending, which facts_record writes with the audit rows,
-- so they outlive the syncer that recorded them: after a takeover or a failover the next syncer
-- applies what the last one left). Only what those facts can have changed is computed again, from
-- the committed tree: the subtree of a namespace whose state changed, that was created, renamed or
-- moved (namespace_effective_states_below_any, linear in the roots plus their subtrees); the
-- namespaces an import batch wrote (its id range). Rows of deleted namespaces go with them, in
-- the deleting transaction (namespaces_effective_states). A TRUNCATE of the tree, a backfill, or
-- a pending row without a fact (the install leaves one, so that the first update builds the
-- table) rebuilds the table whole. Which facts matter is decided here, in one place: a fact of
-- any other kind changes nothing. The cost follows the changes, not the tree; the transitions
-- themselves pay nothing. Returns how many facts were taken and how many rows were written or
-- deleted (-1: rebuilt whole).
create or replace function lifecycle.effective_states_apply(out facts int, out written bigint)
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
declare
  taken jsonb[];
  whole boolean;
  roots bigint[];
  imported record;
  n bigint;
begin
  -- One writer at a time (the syncer's update, a rebuild, a DELETE of namespaces: step 6 of the
  -- global lock order, namespace_lock_path): each statement below reads the tree after the lock,
  -- so no row is written from a tree older than another writer's, and no two updates take the
  -- same pending rows. Readers are not blocked. A row of lifecycle.lock_rows, not a lock on the
  -- table: any role that may read the table may hold a lock on it (PREPARE of an INSERT takes ROW
  -- EXCLUSIVE before privileges are checked).
  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for update;
  with p as (
    delete from lifecycle.effective_states_pending p returning p.audit_event_id
  ), o as (
    -- Facts being recorded right now are skipped (SKIP LOCKED): their recording leaves them pending.
    update lifecycle.facts f set applied = true
     where f.id in (select u.id from lifecycle.facts u where not u.applied for update skip locked)
    returning f.action, f.namespace_id, f.details
  ), f as (
    select a.action, a.namespace_id, a.details, p.audit_event_id is null as whole
      from p
      left join lifecycle.audit_events a on a.id = p.audit_event_id
    union all
    select o.action, o.namespace_id, o.details, false from o
  )
  select pg_catalog.count(*), pg_catalog.bool_or(f.whole),
         pg_catalog.array_agg(pg_catalog.jsonb_build_object('action', f.action, 'namespace_id', f.namespace_id,
                                                            'details', f.details))
           filter (where f.action is not null)
    into facts, whole, taken
    from f;
  written := 0;
  if facts = 0 then
    return;
  end if;
  if whole or exists (select from pg_catalog.unnest(taken) f
                       where (f ->> 'action' = 'table_truncated' and f -> 'details' -> 'tables' ? 'lifecycle.namespaces')
                          or (f ->> 'action' = 'namespaces_imported' and (f -> 'details' ->> 'backfill')::boolean)) then
    perform lifecycle.effective_states_refresh();
    written := -1;
    return;
  end if;

  -- The namespaces whose subtree may read otherwise now: any change of state (a history row's
  -- fact: the action its transition names, with from_state and to_state), a creation, a rename, a
  -- finished move.
  select pg_catalog.array_agg(distinct (f ->> 'namespace_id')::bigint) into roots
    from pg_catalog.unnest(taken) f
   where f ->> 'namespace_id' is not null
     and (f ->> 'action' in ('namespace_created', 'renamed', 'transfer_completed')
          or f -> 'details' ? 'to_state'
          or f ->> 'action' in (select t.audit_action from lifecycle.state_transitions t));
  written := lifecycle.effective_states_write(roots);

  -- Namespaces an import batch wrote: the ids of its range that have no row yet.
  for imported in select (f -> 'details' ->> 'first_id')::bigint as first_id, (f -> 'details' ->> 'last_id')::bigint as last_id
                    from pg_catalog.unnest(taken) f
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
end
$$;
