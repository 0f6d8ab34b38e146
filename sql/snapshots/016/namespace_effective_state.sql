-- The effective state of one namespace, always fresh (docs/design.md §2): the own state of the
-- nearest namespace on the path self → root that has one, else active; the namespace it comes
-- from when that is an ancestor; and the path-wide flags the nearest rule hides. O(depth).
--
-- The hottest read of the product (a forge asks it on every push and API write), so it is plain,
-- inlinable SQL: a SQL-standard body binds its names when it is created, so it needs no SECURITY
-- DEFINER and no SET clause (either would stop the planner from inlining it into the caller's
-- query and plan it on every call). It runs as the caller, who needs SELECT on namespaces and
-- states (lifecycle_app and lifecycle_worker have it). One primary-key read for the row and its
-- traversal_ids, then one probe per level of namespaces_stateful_idx, a partial index of only
-- the namespaces with an own state (a few percent of them), read index-only; one aggregate for
-- the nearest state and the flags of the states on the path.
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
begin atomic
  select n.id, own.name, coalesce(p.nearest_name, 'active'), nullif(p.nearest_id, n.id),
         coalesce(p.archived, false), coalesce(p.pending_deletion, false), coalesce(p.read_only, false)
    from lifecycle.namespaces n
    join lifecycle.states own on own.code = n.state
   cross join lateral (
     -- Nearest first: the deepest namespace of the path that has an own state.
     select (pg_catalog.array_agg(a.id order by pg_catalog.array_position(n.traversal_ids, a.id) desc))[1] as nearest_id,
            (pg_catalog.array_agg(s.name order by pg_catalog.array_position(n.traversal_ids, a.id) desc))[1] as nearest_name,
            bool_or(s.name = 'archived') as archived,
            bool_or(s.pending_deletion) as pending_deletion,
            bool_or(s.read_only) as read_only
       from lifecycle.namespaces a
       join lifecycle.states s on s.code = a.state
      where a.id = any (n.traversal_ids) and a.state <> 0
   ) p
   where n.id = namespace_effective_state.namespace_id;
end;

comment on function lifecycle.namespace_effective_state(bigint) is
  'Effective state, its source ancestor and the path-wide flags of one namespace; fresh, O(depth), inlinable. No row when the namespace does not exist.';
