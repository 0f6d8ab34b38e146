-- Raise NS010 for a tree bridge that cannot carry a change (docs/design.md §10.3): broken
-- (legacy_tree_broken's reason) or meeting an error of its own (a constraint or trigger of the
-- application's table, a privilege revoked), naming the bridge, its table and the repairs; never
-- the raw error.
create or replace function lifecycle.legacy_tree_refuse(b lifecycle.legacy_tree_bridges, reason text, ns_id bigint)
returns void
language plpgsql
stable
set search_path to ''
as $$
declare
  table_name text := coalesce((select c.oid::regclass::text from pg_catalog.pg_class c where c.oid = b.source),
                              pg_catalog.format('table %s (gone)', b.source::oid));
begin
  raise exception using errcode = 'NS010',
    message = pg_catalog.format('legacy tree bridge %s (%s) cannot carry the change: %s', b.id, table_name, reason),
    detail = pg_catalog.format('tree_bridge_id=%s source=%s source_oid=%s namespace_id=%s', b.id, table_name, b.source::oid, ns_id),
    hint = pg_catalog.format('Restore the column as it was when the bridge was added, or end the bridge: '
                             'select lifecycle.legacy_tree_bridge_drop(%s::regclass); (and add it again for the table as it is now).',
                             b.source::oid);
end
$$;
