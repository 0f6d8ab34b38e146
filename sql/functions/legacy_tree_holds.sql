-- Whether a tree-bridged table holds a row of the namespace (docs/design.md §10.3): the legacy
-- application knows it. Identifiers from the catalog, quoted; a broken tree bridge is skipped.
create or replace function lifecycle.legacy_tree_holds(ns_id bigint, ns_type text)
returns boolean
language plpgsql
stable
-- Definer: reads the legacy tables, as the bridges' triggers do.
security definer
set search_path to ''
-- No policy the application's role puts on its table runs with the rights this runs with: a read
-- such a policy would filter is refused (42501) instead (docs/reliability.md).
set row_security to off
as $$
declare
  t record;
  found_row boolean;
begin
  -- Each bridge's column found by the catalog's index (offset 0: legacy_bridge_lock says why).
  for t in select tb.source, a.attname
             from lifecycle.legacy_tree_bridges tb
             cross join lateral (select a.attname from pg_catalog.pg_attribute a
                                  where a.attrelid = tb.source and a.attnum = tb.id_attnum and not a.attisdropped
                                 offset 0) a
            where case when tb.type_attnum is null then tb.types #>> '{}' = ns_type
                       else exists (select from pg_catalog.jsonb_each_text(tb.types) m where m.value = ns_type) end
            order by tb.id loop
    execute pg_catalog.format('select exists (select from %s where %I = $1)', t.source, t.attname) into found_row using ns_id;
    if found_row then
      return true;
    end if;
  end loop;
  return false;
end
$$;
