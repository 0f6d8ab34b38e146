-- The effective state of one namespace, always fresh (docs/design.md §2): the own state of the
-- nearest namespace on the path self → root that has one, else active; the namespace it comes
-- from when that is an ancestor; and the path-wide flags the nearest rule hides. O(depth).
--
-- The hottest read of the product (a forge asks it on every push and API write), so it is plain,
-- inlinable SQL: a SQL-standard body binds its names when it is created, so it needs no SECURITY
-- DEFINER and no SET clause (either would stop the planner from inlining it into the caller's
-- query and plan it on every call). It runs as the caller, who needs SELECT on namespaces and
-- EXECUTE on the digest functions (lifecycle_app and lifecycle_worker have both).
--
-- Its cost is mostly the executor's setup of each node and aggregate per statement, so it has few:
-- one primary-key read for the row and its traversal_ids; one probe per level of
-- namespaces_stateful_idx, a partial index of only the namespaces with an own state (a few percent
-- of them), read index-only (its predicate is state > 0, which the probe repeats so the planner may
-- use it; the index's comment says why not <> 0), folded by two plain aggregates: the nearest one
-- as its position on the path and its code packed in one number (position * 64 + code), and the set
-- of codes on the path as a bit mask. Names and flags come from lifecycle.state_names() and
-- state_flag_mask(), the digest of lifecycle.states its trigger keeps (states_digest_write):
-- constants in the plan, where a join to states per ancestor and ordered aggregates cost more than
-- the probes.
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
  select n.id,
         (lifecycle.state_names())[n.state],
         coalesce((lifecycle.state_names())[p.nearest % 64], 'active'),
         nullif(n.traversal_ids[p.nearest / 64], n.id),
         coalesce(p.codes & lifecycle.state_flag_mask('archived') <> 0, false),
         coalesce(p.codes & lifecycle.state_flag_mask('pending_deletion') <> 0, false),
         coalesce(p.codes & lifecycle.state_flag_mask('read_only') <> 0, false)
    from lifecycle.namespaces n
   cross join lateral (
     select max(pg_catalog.array_position(n.traversal_ids, a.id) * 64 + a.state) as nearest,
            bit_or(1::bigint << a.state) as codes
       from lifecycle.namespaces a
      where a.id = any (n.traversal_ids) and a.state > 0
   ) p
   where n.id = namespace_effective_state.namespace_id;
end;

comment on function lifecycle.namespace_effective_state(bigint) is
  'Effective state, its source ancestor and the path-wide flags of one namespace; fresh, O(depth), inlinable. No row when the namespace does not exist.';
