-- Step 1 of the global lock order (namespace_lock_path) for an INSERT: the parent's path FOR SHARE,
-- root first. A row lock, not the advisory key: one INSERT statement may create thousands of
-- namespaces below thousands of parents, and a row lock costs no slot in the shared lock table.
-- It waits for, and holds off, the same writers as the key: a change of an ancestor takes its row
-- FOR NO KEY UPDATE before its key (step 2).
create or replace function lifecycle.namespace_lock_path_rows(ids bigint[])
returns void
language plpgsql
-- Definer: FOR SHARE needs a privilege the application role does not have.
security definer
set search_path to ''
-- Plans are cached for the session (PL/pgSQL). Seq scans off: a generic plan made while the table
-- was small (a fresh database filled by one large INSERT) would otherwise keep scanning the whole
-- table for these id lists as it grows, making that INSERT quadratic; with them off, it is the
-- index plan from the start.
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
-- And always that generic plan: left to choose, the plan cache judged it dearer than a plan for
-- the actual ids (it assumes ten of them) and planned this statement afresh on every call.
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

comment on function lifecycle.namespace_lock_path_rows(bigint[]) is
  'Locks the given namespaces FOR SHARE, root first: step 1 of the global lock order for an INSERT.';
