-- The effective state and full path of the given namespaces and of every namespace below any of
-- them, always fresh (docs/design.md §2), each namespace once: the set-based form of
-- namespace_effective_state for many subtrees at once, in O(ids + the subtrees) whatever the
-- planner estimates. A join of two sets that grow with the ids is planned on estimates (the unnest
-- of an array parameter is 10 rows, a recursive walk ten times its start), and planned wrong it is
-- quadratic in the ids (a nested loop over a set of 50,000 for each of 50,000: issue 24) or linear
-- in the table for one leaf (a hash of every namespace for a walk of one row). So no step joins
-- two such sets:
--   * an id below another id is dropped (its subtree is in the other's): sorted by traversal_ids,
--     a subtree is the range from its root to its root's traversal_ids followed by the largest
--     bigint, so an id is below an earlier one when the running maximum of those ends is past it
--     (an id given twice is below its first copy); a sort and a window, not a comparison of pairs;
--   * the context from above (the nearest ancestor with an own state, the path-wide flags, the
--     parent's full path) is computed once per parent, not per id: a burst of creations has
--     thousands of ids below a few parents. An aggregate over the parent's ancestors
--     (primary-key probes, O(depth)) in a lateral subquery, so once per parent by construction;
--   * one walk down parent_id from all of them together, each child taking its parent's answer
--     unless it has an own state; the children of each row are read by a lateral subquery that
--     OFFSET 0 keeps from being flattened into a join, so always by namespaces_parent_id_idx, one
--     probe per row walked; the state of the namespace an answer comes from travels with it, so no
--     join back to the namespaces at the end.
-- namespace_effective_states_below is this for one id; effective_states_write keeps
-- lifecycle.effective_states from it. Plain SQL, run as the caller (who needs SELECT on the
-- tables, as lifecycle_app and lifecycle_worker have). Ids of no namespace give no row.
create function lifecycle.namespace_effective_states_below_any(namespace_ids bigint[])
returns table (
  namespace_id bigint,
  state text,
  effective_state text,
  inherited_from_namespace_id bigint,
  self_or_ancestor_archived boolean,
  self_or_ancestor_deletion_scheduled boolean,
  read_only boolean,
  full_path text
)
language sql
stable
begin atomic
  with recursive ranked as (
    select n.id, n.traversal_ids,
           pg_catalog.max(n.traversal_ids || 9223372036854775807::bigint)
             over (order by n.traversal_ids rows between unbounded preceding and 1 preceding) as earlier_ends
      from pg_catalog.unnest(namespace_effective_states_below_any.namespace_ids) r(id)
      join lifecycle.namespaces n on n.id = r.id
  ), parents as (
    select r.traversal_ids[1:pg_catalog.cardinality(r.traversal_ids) - 1] as ancestors, pg_catalog.array_agg(r.id) as ids
      from ranked r
     where r.earlier_ends is null or r.earlier_ends < r.traversal_ids
     group by 1
  ), above as (
    select p.ids, c.source_id, c.source_state, c.archived, c.pending_deletion, c.read_only, c.parent_path
      from parents p
     cross join lateral (
       select (pg_catalog.array_agg(a.id order by pg_catalog.cardinality(a.traversal_ids) desc)
                 filter (where a.state <> 0))[1] as source_id,
              (pg_catalog.array_agg(a.state order by pg_catalog.cardinality(a.traversal_ids) desc)
                 filter (where a.state <> 0))[1] as source_state,
              coalesce(pg_catalog.bool_or(s.name = 'archived'), false) as archived,
              coalesce(pg_catalog.bool_or(s.pending_deletion), false) as pending_deletion,
              coalesce(pg_catalog.bool_or(s.read_only), false) as read_only,
              pg_catalog.string_agg(a.path, '/' order by pg_catalog.cardinality(a.traversal_ids)) as parent_path
         from lifecycle.namespaces a
         join lifecycle.states s on s.code = a.state
        where a.id = any (p.ancestors)
     ) c
  ), tree as (
    select r.id, r.state,
           coalesce(above.parent_path || '/', '') || r.path as full_path,
           case when r.state <> 0 then r.id else above.source_id end as source_id,
           case when r.state <> 0 then r.state else above.source_state end as source_state,
           above.archived or s.name = 'archived' as archived,
           above.pending_deletion or s.pending_deletion as pending_deletion,
           above.read_only or s.read_only as read_only
      from above
     cross join pg_catalog.unnest(above.ids) u(id)
      join lifecycle.namespaces r on r.id = u.id
      join lifecycle.states s on s.code = r.state
    union all
    select c.id, c.state, t.full_path || '/' || c.path,
           case when c.state <> 0 then c.id else t.source_id end,
           case when c.state <> 0 then c.state else t.source_state end,
           t.archived or s.name = 'archived', t.pending_deletion or s.pending_deletion, t.read_only or s.read_only
      from tree t
     cross join lateral (select n.id, n.state, n.path from lifecycle.namespaces n where n.parent_id = t.id offset 0) c
      join lifecycle.states s on s.code = c.state
  )
  select t.id, own.name, coalesce(src_state.name, 'active'), nullif(t.source_id, t.id),
         t.archived, t.pending_deletion, t.read_only, t.full_path
    from tree t
    join lifecycle.states own on own.code = t.state
    left join lifecycle.states src_state on src_state.code = t.source_state;
end;

comment on function lifecycle.namespace_effective_states_below_any(bigint[]) is
  'Effective state and full path of the given namespaces and every namespace below any of them, each once; fresh, O(ids + subtrees).';
