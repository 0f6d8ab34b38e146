-- The attribute number of a column legacy_bridge_add is given, checked against the catalog: it
-- exists in source (not dropped) with one of the types the bridge can read and write for its
-- role; else NS010 naming what was expected (role: the argument's name, what: the types in words).
create or replace function lifecycle.legacy_bridge_attnum(source regclass, column_name name, types regtype[], role text, what text)
returns smallint
language plpgsql
stable
set search_path to ''
as $$
declare
  found smallint;
begin
  select a.attnum into found
    from pg_catalog.pg_attribute a
   where a.attrelid = source and a.attname = column_name and a.attnum > 0 and not a.attisdropped
     and a.atttypid = any (types);
  if found is null then
    raise exception using errcode = 'NS010', message = pg_catalog.format('%s has no %s column %I', source, what, column_name),
      detail = pg_catalog.format('source=%s %s=%s', source, role, column_name),
      hint = pg_catalog.format('Name a %s column of %s as %s.', what, source, role);
  end if;
  return found;
end
$$;
