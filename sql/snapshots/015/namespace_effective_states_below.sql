-- The effective state of a namespace and of every namespace below it, always fresh (docs/design.md
-- §2): the set-based form of namespace_effective_state, with the full path, in O(subtree). The
-- namespace's context comes from its ancestors in one pass (the nearest with an own state, the
-- path-wide flags, the parent's full path), then the subtree is walked down parent_id
-- (namespaces_parent_id_idx), each child taking its parent's answer unless it has an own state.
-- lifecycle.effective_states is kept from it (effective_states_apply), and so is its reference,
-- effective_states_computed, the same walk from every root. Plain SQL, run as the caller (who
-- needs SELECT on the tables, as lifecycle_app and lifecycle_worker have).
create function lifecycle.namespace_effective_states_below(namespace_id bigint)
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
  with recursive above as (
    select (pg_catalog.array_agg(a.id order by pg_catalog.cardinality(a.traversal_ids) desc)
              filter (where a.state <> 0))[1] as source_id,
           coalesce(bool_or(s.name = 'archived'), false) as archived,
           coalesce(bool_or(s.pending_deletion), false) as pending_deletion,
           coalesce(bool_or(s.read_only), false) as read_only,
           pg_catalog.string_agg(a.path, '/' order by pg_catalog.cardinality(a.traversal_ids)) as parent_path
      from lifecycle.namespaces r
      join lifecycle.namespaces a on a.id = any (r.traversal_ids[1:pg_catalog.cardinality(r.traversal_ids) - 1])
      join lifecycle.states s on s.code = a.state
     where r.id = namespace_effective_states_below.namespace_id
  ), tree as (
    select r.id, r.state,
           coalesce(above.parent_path || '/', '') || r.path as full_path,
           case when r.state <> 0 then r.id else above.source_id end as source_id,
           above.archived or s.name = 'archived' as archived,
           above.pending_deletion or s.pending_deletion as pending_deletion,
           above.read_only or s.read_only as read_only
      from lifecycle.namespaces r
     cross join above
      join lifecycle.states s on s.code = r.state
     where r.id = namespace_effective_states_below.namespace_id
    union all
    select c.id, c.state, t.full_path || '/' || c.path,
           case when c.state <> 0 then c.id else t.source_id end,
           t.archived or s.name = 'archived', t.pending_deletion or s.pending_deletion, t.read_only or s.read_only
      from tree t
      join lifecycle.namespaces c on c.parent_id = t.id
      join lifecycle.states s on s.code = c.state
  )
  select t.id, own.name, coalesce(src_state.name, 'active'), nullif(t.source_id, t.id),
         t.archived, t.pending_deletion, t.read_only, t.full_path
    from tree t
    join lifecycle.states own on own.code = t.state
    left join lifecycle.namespaces src on src.id = t.source_id
    left join lifecycle.states src_state on src_state.code = src.state;
end;

comment on function lifecycle.namespace_effective_states_below(bigint) is
  'Effective state and full path of a namespace and every namespace below it; fresh, O(subtree).';
