-- Every row of lifecycle.effective_states that differs from its definition
-- (effective_states_computed, the recursive walk from every root): missing, extra, or with other
-- values. Empty when the kept table is right. For the tests, make stress, and operators after a
-- restore (lifecycle.effective_states_refresh() repairs it). Reads the whole tree.
create or replace function lifecycle.effective_states_verify()
returns table (namespace_id bigint, problem text)
language sql
stable
security definer
set search_path to ''
as $$
  select coalesce(c.namespace_id, e.namespace_id),
         case when e.namespace_id is null then 'missing'
              when c.namespace_id is null then 'extra: the namespace is gone'
              else pg_catalog.format('kept %s, computed %s', e, c) end
    from lifecycle.effective_states_computed c
    full join lifecycle.effective_states e on e.namespace_id = c.namespace_id
   where e.namespace_id is null or c.namespace_id is null
      or (e.state, e.effective_state, e.inherited_from_namespace_id, e.self_or_ancestor_archived,
          e.self_or_ancestor_deletion_scheduled, e.read_only, e.full_path)
         is distinct from
         (c.state, c.effective_state, c.inherited_from_namespace_id, c.self_or_ancestor_archived,
          c.self_or_ancestor_deletion_scheduled, c.read_only, c.full_path)
   order by 1
$$;

comment on function lifecycle.effective_states_verify() is
  'Every row of lifecycle.effective_states that differs from the recursive definition (empty when right).';
