-- What the legacy data of one bridge says of one namespace: true (in the bridged state), false
-- (also a flag or column bridge that inserts missing rows without one: its condition is off), or
-- null when the bridge does not speak for it (a flag or column bridge without a row for it, or
-- a namespace of a type the bridge leaves out, or a broken bridge with nothing of the namespace:
-- legacy_bridge_usable, which refuses with NS010 one that has). Identifiers from the catalog, quoted.
create or replace function lifecycle.legacy_bridge_holds(b lifecycle.legacy_bridges, ns_id bigint, ns_type text)
returns boolean
language plpgsql
stable
security definer
set search_path to ''
as $$
declare
  ns_col name;
  answer boolean;
begin
  if b.namespace_types is not null and not ns_type = any (b.namespace_types) then
    return null;
  end if;
  if not lifecycle.legacy_bridge_usable(b, ns_id) then
    return null;
  end if;
  ns_col := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
  if b.kind = 'exists' then
    execute pg_catalog.format('select exists (select from %s where %I = $1)', b.source, ns_col) into answer using ns_id;
  elsif b.kind = 'flag' then
    execute pg_catalog.format('select bool_or(coalesce(%I, false)) from %s where %I = $1',
                              lifecycle.legacy_bridge_column(b.source, b.when_attnum), b.source, ns_col) into answer using ns_id;
  else
    execute pg_catalog.format('select bool_or(%I is not null) from %s where %I = $1',
                              lifecycle.legacy_bridge_column(b.source, b.when_attnum), b.source, ns_col) into answer using ns_id;
  end if;
  if answer is null and b.insert_missing then
    return false;
  end if;
  return answer;
end
$$;
