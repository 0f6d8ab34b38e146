-- The effective state of one namespace, always fresh (docs/design.md §2): the own state of the nearest
-- namespace on the path self → root that has one, else active; the namespace it comes from when
-- that is an ancestor; and the path-wide flags the nearest rule hides. One pass over traversal_ids,
-- a primary-key probe per level: O(depth).
create or replace function lifecycle.namespace_effective_state(namespace_id bigint)
returns table (
  namespace_id bigint,
  state text,
  effective_state text,
  inherited_from_namespace_id bigint,
  self_or_ancestor_archived boolean,
  self_or_ancestor_deletion_scheduled boolean,
  read_only boolean
)
language sql
stable
set search_path to ''
as $$
  select n.id,
         own.name,
         coalesce(p.stateful_names[1], 'active'),
         nullif(p.stateful_ids[1], n.id),
         p.archived,
         p.pending_deletion,
         p.read_only
    from lifecycle.namespaces n
    join lifecycle.states own on own.code = n.state
   cross join lateral (
     -- Nearest first: the path's namespaces with an own state, deepest first.
     select pg_catalog.array_agg(a.id order by t.depth desc) filter (where a.state <> 0) as stateful_ids,
            pg_catalog.array_agg(s.name order by t.depth desc) filter (where a.state <> 0) as stateful_names,
            coalesce(bool_or(s.name = 'archived'), false) as archived,
            coalesce(bool_or(s.pending_deletion), false) as pending_deletion,
            coalesce(bool_or(s.read_only), false) as read_only
       from pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
       join lifecycle.namespaces a on a.id = t.id
       join lifecycle.states s on s.code = a.state
   ) p
   where n.id = namespace_effective_state.namespace_id
$$;

comment on function lifecycle.namespace_effective_state(bigint) is
  'Effective state, its source ancestor and the path-wide flags of one namespace; fresh, O(depth). No row when the namespace does not exist.';
