-- Step 3 of the global lock order (namespace_lock_path): the name "path below parent", as a
-- transaction-level advisory lock. Whoever is about to make a path live below a parent (create,
-- rename, move, restore) holds it while checking that no live sibling has the path, so two of them
-- cannot both see it free; the second waits, then sees the first's committed row and is refused
-- with NS006 instead of a unique violation.
create or replace function lifecycle.namespace_lock_sibling_path(parent_id bigint, path text)
returns void
language sql
set search_path to ''
as $$
  select pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('lifecycle sibling path ' || coalesce(parent_id, 0) || '/' || path, 0))
$$;
