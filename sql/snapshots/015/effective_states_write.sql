-- Write the rows of lifecycle.effective_states for the subtrees of the given namespaces as they
-- are now (namespace_effective_states_below, O(subtree) each): missing rows inserted, rows that
-- differ updated, rows that agree left alone (no dead tuples, no WAL for them). A root below
-- another root is computed with it (one hash join of the roots' ancestors with the roots, not a
-- comparison of every pair). The one writer of the rows: effective_states_apply passes the
-- namespaces its facts name, effective_states_refresh every root. Returns the rows written.
-- Not granted to anyone; the caller holds the table's lock (step 6 of the global lock order).
create function lifecycle.effective_states_write(roots bigint[])
returns bigint
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
declare
  written bigint;
begin
  roots := array(with rs as (select distinct r.id from pg_catalog.unnest(roots) r(id))
                 select rs.id from rs
                  where not exists (select from lifecycle.namespaces n
                                     cross join pg_catalog.unnest(n.traversal_ids[1:pg_catalog.cardinality(n.traversal_ids) - 1]) a(id)
                                      join rs o on o.id = a.id
                                     where n.id = rs.id));
  if pg_catalog.cardinality(roots) = 0 then
    return 0;
  end if;
  insert into lifecycle.effective_states as e
  select b.* from pg_catalog.unnest(roots) r, lifecycle.namespace_effective_states_below(r) b
  on conflict (namespace_id) do update
     set state = excluded.state, effective_state = excluded.effective_state,
         inherited_from_namespace_id = excluded.inherited_from_namespace_id,
         self_or_ancestor_archived = excluded.self_or_ancestor_archived,
         self_or_ancestor_deletion_scheduled = excluded.self_or_ancestor_deletion_scheduled,
         read_only = excluded.read_only, full_path = excluded.full_path
   where (e.state, e.effective_state, e.inherited_from_namespace_id, e.self_or_ancestor_archived,
          e.self_or_ancestor_deletion_scheduled, e.read_only, e.full_path)
         is distinct from
         (excluded.state, excluded.effective_state, excluded.inherited_from_namespace_id, excluded.self_or_ancestor_archived,
          excluded.self_or_ancestor_deletion_scheduled, excluded.read_only, excluded.full_path);
  get diagnostics written = row_count;
  return written;
end
$$;
