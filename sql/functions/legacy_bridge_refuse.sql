-- Raise NS010 for a broken bridge (legacy_bridge_broken's reason, or the error its statement
-- met), naming the bridge, its table and the two repairs, never the raw error an ALTER or DROP of
-- the legacy table would otherwise give every state change.
create or replace function lifecycle.legacy_bridge_refuse(b lifecycle.legacy_bridges, reason text, ns_id bigint)
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
    message = pg_catalog.format('legacy bridge %s (%s, %s) is broken: %s', b.id, table_name, lifecycle.state_name(b.state), reason),
    detail = pg_catalog.format('bridge_id=%s source=%s source_oid=%s state=%s namespace_id=%s', b.id, table_name, b.source::oid,
                               lifecycle.state_name(b.state), ns_id),
    hint = pg_catalog.format('Restore the column as it was when the bridge was added, or end the table''s bridges: '
                             'select lifecycle.legacy_bridge_drop(%s::regclass); (and add them again for the table as it is now).',
                             b.source::oid);
end
$$;
