-- Step 3 of the global lock order (namespace_lock_path): the name "path below parent", as a
-- transaction-level advisory lock. Whoever is about to make a path live below a parent (create,
-- rename, move, restore) holds it while checking that no live sibling has the path, so two of them
-- cannot both see it free; the second waits, then sees the first's committed row and is refused
-- with NS006 instead of a unique violation.
--
-- A transaction holds one such lock per path it makes live. PostgreSQL's lock table is shared and
-- bounded (max_locks_per_transaction × connections): one INSERT of 100k namespaces holding 100k
-- locks would exhaust it. So every holder also takes one key "all sibling paths" shared, and a
-- transaction past 1,000 path locks takes that key exclusively instead and no more path locks:
-- until it commits, every other path-making write waits, and still none races it. Bulk loads
-- belong in the import, which commits in batches; this keeps a large plain INSERT correct.
--
-- The count lives in a transaction-local setting. A client that sets it only changes how its own
-- transaction locks (anyone may take advisory locks anyway); the unique index stays the last line.
create or replace function lifecycle.namespace_lock_sibling_path(parent_id bigint, path text)
returns void
language plpgsql
set search_path to ''
as $$
declare
  taken int := coalesce(nullif(pg_catalog.current_setting('lifecycle.sibling_path_locks', true), '')::int, 0);
  all_paths constant bigint := pg_catalog.hashtextextended('lifecycle sibling paths (all)', 0);
  counted text;
begin
  if taken < 0 then
    return; -- this transaction holds every sibling path already
  end if;
  if taken >= 1000 then
    -- Held shared since its first path lock; upgraded (the wait ends when the other holders commit).
    counted := pg_catalog.pg_advisory_xact_lock(all_paths)::text
            || pg_catalog.set_config('lifecycle.sibling_path_locks', '-1', true);
    return;
  end if;
  -- (Assignments, not PERFORM, which would run a whole query for each call.)
  counted := pg_catalog.pg_advisory_xact_lock_shared(all_paths)::text
          || pg_catalog.pg_advisory_xact_lock(
               pg_catalog.hashtextextended('lifecycle sibling path ' || coalesce(parent_id, 0) || '/' || path, 0))::text
          || pg_catalog.set_config('lifecycle.sibling_path_locks', (taken + 1)::text, true);
end
$$;
