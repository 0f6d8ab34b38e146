-- Write the rows of lifecycle.effective_states for the subtrees of the given namespaces as they
-- are now (namespace_effective_states_below_any: one walk from them all, a root below another
-- computed with it, in O(roots + subtrees) whatever their number: a burst of 50,000 creations is
-- one statement, not 50,000 walks and a comparison of every pair of roots, issue 24): missing rows
-- inserted, rows that differ updated, rows that agree only read. They are compared before the
-- INSERT, not in ON CONFLICT's WHERE: ON CONFLICT DO UPDATE locks the row it conflicts with before
-- it tests the WHERE, and a lock is a WAL record and a dirtied page: a rebuild that changes
-- nothing would write one per row (5.5 MB of WAL at 100,000 namespaces), and every logical slot
-- reads that WAL before the changes committed after it. Each row is compared with its kept row by
-- a primary-key probe (a lateral subquery OFFSET 0 keeps from being planned as a join): the
-- walk's size is estimated at thousands of rows for a single leaf, and a join planned on that
-- hashes the whole table for it. Its plan is the generic one from the first call: no step of it
-- depends on the number of roots, and planning it anew for each call (the custom plans PL/pgSQL
-- would otherwise keep choosing, their estimates far below the generic plan's) cost more than the
-- update of a leaf itself. The one writer of the rows: effective_states_apply passes
-- the namespaces its facts name, effective_states_refresh every root. Returns the rows written.
-- Not granted to anyone; the caller holds the table's lock (step 6 of the global lock order), so
-- no row changes between the comparison and the write.
create or replace function lifecycle.effective_states_write(roots bigint[])
returns bigint
language plpgsql
security definer
set search_path to ''
set jit to off
set plan_cache_mode to force_generic_plan
as $$
declare
  written bigint;
begin
  if pg_catalog.cardinality(roots) = 0 then
    return 0;
  end if;
  insert into lifecycle.effective_states
  select b.*
    from lifecycle.namespace_effective_states_below_any(roots) b
    left join lateral (select o.* from lifecycle.effective_states o where o.namespace_id = b.namespace_id offset 0) o on true
   where o.namespace_id is null
      or (o.state, o.effective_state, o.inherited_from_namespace_id, o.self_or_ancestor_archived,
          o.self_or_ancestor_deletion_scheduled, o.read_only, o.full_path)
         is distinct from
         (b.state, b.effective_state, b.inherited_from_namespace_id, b.self_or_ancestor_archived,
          b.self_or_ancestor_deletion_scheduled, b.read_only, b.full_path)
  on conflict (namespace_id) do update
     set state = excluded.state, effective_state = excluded.effective_state,
         inherited_from_namespace_id = excluded.inherited_from_namespace_id,
         self_or_ancestor_archived = excluded.self_or_ancestor_archived,
         self_or_ancestor_deletion_scheduled = excluded.self_or_ancestor_deletion_scheduled,
         read_only = excluded.read_only, full_path = excluded.full_path;
  get diagnostics written = row_count;
  return written;
end
$$;
