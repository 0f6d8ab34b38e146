-- THE GLOBAL LOCK ORDER. Every function and trigger that locks rows of the lifecycle schema takes
-- them in this order, so concurrent lifecycle operations queue behind each other instead of
-- deadlocking:
--
--   0. a transfer request, FOR UPDATE (transfer_request_lock): accept, decline, cancel, expiry and
--      the move serialise on it, before they touch any namespace;
--   1. namespaces on a path, root first, shared (this function): a transaction-level advisory lock
--      per namespace (namespace_lock_key), taken shared, beside one key of all namespaces held
--      shared (see below). A change below an ancestor holds it, so the ancestor cannot change
--      state, move, be renamed or change visibility until that change commits: each of those
--      holds its own key exclusively first (step 2). Guards that look up or
--      down the tree are therefore checked against committed, stable rows. A move locks the old
--      and the new path in one call, so both are taken root first together. Advisory, not row
--      locks: FOR SHARE wrote every ancestor row (a WAL record, and a multixact when clients share
--      an ancestor, as every change in one organization shares its root) on every change below it.
--      An INSERT takes its parent's path FOR SHARE instead (namespace_lock_path_rows), because a
--      bulk INSERT would hold one advisory lock per distinct ancestor and could fill PostgreSQL's
--      bounded lock table; row locks live in the rows. The two kinds meet at step 2, which takes
--      both the row and the key;
--   2. the namespace being changed: its row FOR NO KEY UPDATE (namespace_lock, or its UPDATE),
--      then its own key exclusively (this function with exclusive, called by namespace_lock; for
--      a raw UPDATE of state by the gate, namespaces_state_gate; for a move by
--      namespace_transfer_execute). Only the namespace a
--      statement names takes its key: the rows a move rewrites below it (traversal_ids, the
--      visibility it lowers) are covered by it, their ancestor's, held exclusively;
--   3. the name "path below parent" (namespace_lock_sibling_path), an advisory lock, when a path
--      becomes live (create, rename, move, restore);
--   4. that namespace's namespace_details row (updated by the state record trigger);
--   5. inserts only (history, redirects), which take no row locks that others wait on;
--   6. lifecycle.effective_states: ROW EXCLUSIVE at the end of a DELETE of namespaces
--      (namespaces_effective_states), SHARE ROW EXCLUSIVE for the syncer's update and a rebuild
--      (effective_states_apply, effective_states_refresh), which lock nothing else: they wait for
--      each other, never in a cycle.
--
-- A raw UPDATE (the schema owner's alone) takes the changed row (2) before its trigger takes the
-- path (1). Two raw UPDATEs or a raw UPDATE and an API call can then wait on each other in rare
-- interleavings; PostgreSQL's deadlock detector ends one of them (SQLSTATE 40P01) with nothing
-- half-done. A raw UPDATE of path or visibility takes no key: it holds nothing against changes
-- below it. Clients should use the API functions, which follow the order exactly.
create or replace function lifecycle.namespace_lock_path(ids bigint[], exclusive boolean default false)
returns void
language plpgsql
set search_path to ''
as $$
declare
  taken int := coalesce(nullif(pg_catalog.current_setting('lifecycle.namespace_keys', true), '')::int, 0);
  -- hashtextextended('lifecycle namespaces (all)', 0)
  all_namespaces constant bigint := -8605443955290538006;
  id bigint;
  locked text;
begin
  -- (Assignments, evaluated without starting an executor, not a query per key.)
  if taken < 0 or taken + pg_catalog.cardinality(ids) > 500 then
    -- Held shared since this transaction's first key (when it has one); upgraded: the wait ends
    -- when the other holders commit.
    locked := pg_catalog.pg_advisory_xact_lock(all_namespaces)::text
           || pg_catalog.set_config('lifecycle.namespace_keys', '-1', true);
    return;
  end if;
  if taken = 0 then
    locked := pg_catalog.pg_advisory_xact_lock_shared(all_namespaces)::text;
  end if;
  -- An ancestor's id comes before its descendants' in traversal_ids: callers pass paths root first.
  if exclusive then
    foreach id in array ids loop
      locked := pg_catalog.pg_advisory_xact_lock(lifecycle.namespace_lock_key(id))::text;
    end loop;
  else
    foreach id in array ids loop
      locked := pg_catalog.pg_advisory_xact_lock_shared(lifecycle.namespace_lock_key(id))::text;
    end loop;
  end if;
  locked := pg_catalog.set_config('lifecycle.namespace_keys', (taken + pg_catalog.cardinality(ids))::text, true);
end
$$;

comment on function lifecycle.namespace_lock_path(bigint[], boolean) is
  'Locks the given namespaces'' advisory keys, shared (step 1 of the global lock order: a path, root first) or exclusive (step 2: the namespace changed, after its row); past 500 keys in a transaction, the key of all namespaces exclusively instead.';
