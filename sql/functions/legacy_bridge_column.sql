-- The current name of a bridged column (lifecycle.legacy_bridges keeps attribute numbers, so a
-- renamed column still works), or NS010 when the column or its table is gone: the bridge is
-- broken and says so rather than writing somewhere else.
create or replace function lifecycle.legacy_bridge_column(source regclass, attnum smallint)
returns name
language plpgsql
stable
set search_path to ''
as $$
declare
  found_name name;
begin
  select a.attname into found_name
    from pg_catalog.pg_attribute a
   where a.attrelid = source and a.attnum = legacy_bridge_column.attnum and not a.attisdropped;
  if found_name is null then
    raise exception using errcode = 'NS010', message = 'a legacy bridge is broken: its table or column is gone',
      detail = pg_catalog.format('source=%s attnum=%s', source::oid, attnum),
      hint = 'Drop the bridge (lifecycle.legacy_bridge_drop) and add it again for the table as it is now.';
  end if;
  return found_name;
end
$$;
