-- The effective state of one namespace, always fresh (docs/design.md §2): the own state of the nearest
-- namespace on the path self → root that has one, else active; the namespace it comes from when
-- that is an ancestor; and the path-wide flags the nearest rule hides. O(depth). Computed by
-- lifecycle.effective_state_of, whose plan is cached; this is the API's name and signature.
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
-- Definer: effective_state_of is granted to no one.
security definer
set search_path to ''
as $$
  select * from lifecycle.effective_state_of($1)
$$;

comment on function lifecycle.namespace_effective_state(bigint) is
  'Effective state, its source ancestor and the path-wide flags of one namespace; fresh, O(depth). No row when the namespace does not exist.';
