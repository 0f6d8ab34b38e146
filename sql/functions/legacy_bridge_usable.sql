-- Whether a bridge may be used for a namespace (docs/design.md §10.2): true when it is sound; false
-- when it is broken (legacy_bridge_broken) but has nothing of that namespace (its table is gone,
-- or it has no row for it): a broken bridge speaks for no namespace, so changes elsewhere go on.
-- A broken bridge that has a row of the namespace, or whose namespace column is what broke (it
-- can no longer tell whose rows it has) while its table has any row, refuses the change with NS010
-- naming it (legacy_bridge_refuse): writing past it would let the legacy data and the state part.
create or replace function lifecycle.legacy_bridge_usable(b lifecycle.legacy_bridges, ns_id bigint)
returns boolean
language plpgsql
stable
-- Definer: reads the legacy table, as the bridge's triggers do.
security definer
set search_path to ''
-- No policy the application's role puts on its table runs with the rights this runs with: a read
-- such a policy would filter is refused (42501) instead (docs/reliability.md).
set row_security to off
as $$
declare
  reason text := lifecycle.legacy_bridge_broken(b);
  has_row boolean;
  ns_col name;
begin
  if reason is null then
    return true;
  end if;
  if reason = 'its table is gone' then
    return false;
  end if;
  select a.attname into ns_col
    from pg_catalog.pg_attribute a
   where a.attrelid = b.source and a.attnum = b.namespace_attnum and not a.attisdropped
     and a.atttypid = any (array['int2', 'int4', 'int8']::regtype[]);
  if ns_col is null then
    execute pg_catalog.format('select exists (select from %s)', b.source) into has_row;
  else
    execute pg_catalog.format('select exists (select from %s where %I = $1)', b.source, ns_col) into has_row using ns_id;
  end if;
  if has_row then
    perform lifecycle.legacy_bridge_refuse(b, reason, ns_id);
  end if;
  return false;
end
$$;
