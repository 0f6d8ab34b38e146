-- Step 3 of the global lock order (namespace_lock_path): the name "path below parent". Whoever is
-- about to make a path live below a parent (create, rename, move, restore) claims it while checking
-- that no live sibling has the path, so two of them cannot both see it free; the second waits,
-- then sees the first's committed row and is refused with NS006 instead of a unique violation.
--
-- The claim is a row of lifecycle.path_claims, inserted and deleted again at once: until this
-- transaction ends, another insert of the same key waits for it (a unique index waits for the
-- inserting transaction of a conflicting row, live or deleted), and then finds it dead. Only the
-- schema's functions insert there, so no session can hold a path it is not making live (advisory
-- keys can be taken by any session). Unlogged: nothing of it is worth WAL, and it is
-- empty after a crash. A row lock costs no slot in PostgreSQL's bounded lock table, so a bulk
-- INSERT of 100k namespaces claims 100k paths like one.
create or replace function lifecycle.namespace_lock_sibling_path(parent_id bigint, path text)
returns void
language plpgsql
-- Definer: only the schema's owner writes lifecycle.path_claims.
security definer
set search_path to ''
as $$
declare
  claim tid;
begin
  insert into lifecycle.path_claims as c (parent_id, path)
  values (namespace_lock_sibling_path.parent_id, namespace_lock_sibling_path.path)
  on conflict do nothing
  returning c.ctid into claim;
  delete from lifecycle.path_claims c where c.ctid = claim;
end
$$;
