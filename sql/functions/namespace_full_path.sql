-- The full path (`org/group/sub/project`) of a namespace, from its traversal_ids: one primary-key
-- lookup per level, O(depth). Paths are not stored denormalised, so a rename never rewrites a subtree.
--
-- PL/pgSQL for its cached plan (a SQL function with a SET clause is planned on every call). The
-- cached plan is generic; seq scans are off so that one made while the table was tiny (a fresh
-- database filled by one large INSERT) is still the index plan when the table has grown.
create or replace function lifecycle.namespace_full_path(namespace_id bigint)
returns text
language plpgsql
stable
set search_path to ''
set enable_seqscan to off
-- With seq scans off, a query that can only scan (a one-row table) looks expensive enough to be
-- JIT-compiled, which costs milliseconds: never worth it for these lookups.
set jit to off
as $$
begin
  return (select pg_catalog.string_agg(a.path, '/' order by t.depth)
            from lifecycle.namespaces n
           cross join lateral pg_catalog.unnest(n.traversal_ids) with ordinality as t(id, depth)
            join lifecycle.namespaces a on a.id = t.id
           where n.id = namespace_full_path.namespace_id);
end
$$;

comment on function lifecycle.namespace_full_path(bigint) is
  'Full path of a namespace (root/…/self); null when the namespace does not exist.';
