-- Bring lifecycle.effective_states up to date after recorded facts (docs/design.md §4): the
-- syncer passes the facts of the transactions it recorded, and only what they can have changed is
-- computed again, from the committed tree: the subtree of a namespace whose state changed, that
-- was created, renamed or moved (namespace_effective_states_below, O(subtree)); the namespaces an
-- import batch wrote (its id range). Rows of deleted namespaces go with them, in the deleting
-- transaction (namespaces_effective_states). A TRUNCATE of the tree, or a backfill, rebuilds the table
-- whole. Which facts matter is decided here, in one place: a fact of any other kind changes
-- nothing. The cost follows the changes, not the tree; the transitions themselves pay nothing.
-- Returns how many rows were written or deleted.
--
-- source_xids are the source transactions' ids as logical decoding gives them (32 bits). A
-- transaction's commit reaches a replication client once its commit record is flushed, which is a
-- moment before the transaction becomes visible to new snapshots on the primary (it leaves the
-- list of running transactions after its WAL flush, and after a synchronous standby's answer when
-- there is one). Read within that moment, the tree would not show the change yet, and the rows
-- written from it would stay wrong until the next change there. So this first waits until every
-- source transaction is visible, which it almost always is already.
create or replace function lifecycle.effective_states_apply(facts jsonb[], source_xids bigint[] default '{}')
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
  source_xid bigint;
  snap pg_snapshot;
  xmax bigint;
  waited_since timestamptz := pg_catalog.clock_timestamp();
begin
  foreach source_xid in array coalesce(source_xids, '{}') loop
    loop
      -- A fresh snapshot each time round (a volatile expression in a volatile function). The full
      -- transaction id is the one within 2^31 of the snapshot's xmax that ends in these 32 bits.
      snap := pg_catalog.pg_current_snapshot();
      xmax := pg_catalog.pg_snapshot_xmax(snap)::text::bigint;
      exit when pg_catalog.pg_visible_in_snapshot(
        (xmax + ((source_xid - (xmax & 4294967295) + 2147483648) % 4294967296 + 4294967296) % 4294967296 - 2147483648)::text::xid8,
        snap);
      if pg_catalog.clock_timestamp() - waited_since > interval '10 s' then
        -- Not a refusal: like a lock wait that timed out (55P03), running it again may succeed.
        raise exception using errcode = '55P03', message = 'source transaction not visible within 10 s',
          detail = pg_catalog.format('xid=%s snapshot=%s', source_xid, snap),
          hint = 'Pass the ids of transactions that have committed (from their logical decoding BEGIN message).';
      end if;
      perform pg_catalog.pg_sleep(0.001);
    end loop;
  end loop;

  -- One writer at a time (the syncer's update, a rebuild, a DELETE of namespaces: step 6 of the
  -- global lock order, namespace_lock_path): each statement below reads the tree after the lock,
  -- so no row is written from a tree older than another writer's. Readers are not blocked. A row
  -- of lifecycle.lock_rows, not a lock on the table: any role that may read the table may hold a
  -- lock on it (PREPARE of an INSERT takes ROW EXCLUSIVE before privileges are checked), which
  -- SHARE ROW EXCLUSIVE, taken here before, would wait for.
  perform 1 from lifecycle.lock_rows l where l.name = 'effective_states' for update;
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
