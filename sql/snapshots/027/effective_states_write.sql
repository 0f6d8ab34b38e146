-- Write the rows of lifecycle.effective_states for the subtrees of the given namespaces as they
-- are now (namespace_effective_states_below, O(subtree) each): missing rows inserted, rows that
-- differ updated, rows that agree only read. They are compared before the INSERT, not in ON
-- CONFLICT's WHERE: ON CONFLICT DO UPDATE locks the row it conflicts with before it tests the
-- WHERE, and a lock is a WAL record and a dirtied page. A rebuild that changed nothing wrote one
-- per row (5.5 MB of WAL at 100,000 namespaces), and every logical slot reads that WAL before the
-- changes committed after it. A root below another root is computed with it (one hash join of the
-- roots' ancestors with the roots, not a comparison of every pair). The one writer of the rows:
-- effective_states_apply passes the namespaces its facts name, effective_states_refresh every
-- root. Returns the rows written.
-- Not granted to anyone; the caller holds the table's lock (step 6 of the global lock order), so
-- no row changes between the comparison and the write.
create or replace function lifecycle.effective_states_write(roots bigint[])
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
  insert into lifecycle.effective_states
  select b.*
    from pg_catalog.unnest(roots) r
   cross join lateral lifecycle.namespace_effective_states_below(r) b
    left join lifecycle.effective_states o on o.namespace_id = b.namespace_id
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
