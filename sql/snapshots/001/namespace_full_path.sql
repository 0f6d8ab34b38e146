-- The full path (`org/group/sub/project`) of a namespace, from its traversal_ids: one primary-key
-- lookup per level, O(depth). Paths are not stored denormalised, so a rename never rewrites a subtree.
create or replace function lifecycle.namespace_full_path(namespace_id bigint)
returns text
language sql
stable
set search_path to ''
as $$
  select pg_catalog.string_agg(a.path, '/' order by t.depth)
    from lifecycle.namespaces n
   cross join lateral pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
    join lifecycle.namespaces a on a.id = t.id
   where n.id = namespace_full_path.namespace_id
$$;

comment on function lifecycle.namespace_full_path(bigint) is
  'Full path of a namespace (root/…/self); null when the namespace does not exist.';
