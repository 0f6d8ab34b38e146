-- The effective state of a namespace and of every namespace below it, always fresh (docs/design.md
-- §2): the set-based form of namespace_effective_state, with the full path, in O(subtree).
-- namespace_effective_states_below_any for one id, so the walk is written once: the namespace's
-- context from its ancestors in one pass, then the subtree walked down parent_id. Its reference,
-- effective_states_computed, is the same walk from every root written apart. Plain SQL, run as
-- the caller (who needs SELECT on the tables, as lifecycle_app and lifecycle_worker have), and
-- inlinable into the caller's query.
create or replace function lifecycle.namespace_effective_states_below(namespace_id bigint)
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
  select b.namespace_id, b.state, b.effective_state, b.inherited_from_namespace_id, b.self_or_ancestor_archived,
         b.self_or_ancestor_deletion_scheduled, b.read_only, b.full_path
    from lifecycle.namespace_effective_states_below_any(array[namespace_effective_states_below.namespace_id]) b;
end;

comment on function lifecycle.namespace_effective_states_below(bigint) is
  'Effective state and full path of a namespace and every namespace below it; fresh, O(subtree).';
