-- THE GLOBAL LOCK ORDER. Every function and trigger that locks rows of the lifecycle schema takes
-- them in this order, so concurrent lifecycle operations queue behind each other instead of
-- deadlocking:
--
--   0. a transfer request, FOR UPDATE (transfer_request_lock): accept, decline, cancel, expiry and
--      the move serialise on it, before they touch any namespace;
--   1. namespaces on a path, FOR SHARE, root first (this function). A change below an ancestor
--      holds it shared, so the ancestor cannot change state (or move) until that change commits;
--      an ancestor's own change, holding its row exclusively, makes the change below wait. Guards
--      that look up or down the tree are therefore checked against committed, stable rows. A move
--      locks the old and the new path in one call, so both are taken root first together;
--   2. the namespace being changed, FOR NO KEY UPDATE (its UPDATE takes it; namespace_lock);
--   3. the name "path below parent" (namespace_lock_sibling_path), an advisory lock, when a path
--      becomes live (create, rename, move, restore);
--   4. that namespace's namespace_details row (updated by the state record trigger);
--   5. inserts only (history, redirects), which take no row locks that others wait on;
--   6. lifecycle.effective_states: ROW EXCLUSIVE at the end of a DELETE of namespaces
--      (namespaces_effective_states), SHARE ROW EXCLUSIVE for the syncer's update and a rebuild
--      (effective_states_apply, effective_states_refresh), which lock nothing else: they wait for
--      each other, never in a cycle.
--
-- A raw UPDATE takes the changed row (2) before its trigger takes the path (1). Two raw UPDATEs or
-- a raw UPDATE and an API call can then wait on each other in rare interleavings; PostgreSQL's
-- deadlock detector ends one of them (SQLSTATE 40P01) with nothing half-done. Clients should use
-- the API functions, which follow the order exactly.
create or replace function lifecycle.namespace_lock_path(ids bigint[])
returns void
language plpgsql
-- Definer: FOR SHARE needs a privilege the application role does not have.
security definer
set search_path to ''
-- Plans are cached for the session (PL/pgSQL); planning afresh on every call cost more than the
-- lookups. Seq scans off: a generic plan made while the table was small (a fresh database filled
-- by one large INSERT) would otherwise keep scanning the whole table for these id lists as it
-- grows, making that INSERT quadratic; with them off, it is the index plan from the start.
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
-- And always that generic plan: left to choose, the plan cache judged it dearer than a plan for
-- the actual ids (it assumes ten of them) and planned this statement afresh on every call, twice
-- per state change.
set plan_cache_mode to force_generic_plan
as $$
begin
  -- traversal_ids of an ancestor is a prefix of its descendants', so it sorts first, and rows are
  -- locked in the order the sort returns them. PERFORM reads every row, so every row is locked.
  perform 1
     from lifecycle.namespaces n
    where n.id = any (ids)
    order by n.traversal_ids
      for share of n;
end
$$;

comment on function lifecycle.namespace_lock_path(bigint[]) is
  'Locks the given namespaces FOR SHARE, root first: step 1 of the global lock order.';
