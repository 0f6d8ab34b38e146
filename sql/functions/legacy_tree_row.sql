-- What a row of a tree-bridged table says (docs/design.md §10.3), from the row as JSON: the
-- namespace's id, parent, lifecycle type (types maps the type column; null for a value it does
-- not map), path, name and visibility (the level's name, lifecycle.visibility_levels; an unknown
-- level is NS010). No row for a null row.
create or replace function lifecycle.legacy_tree_row(b lifecycle.legacy_tree_bridges, r jsonb)
returns table (ns_id bigint, parent_id bigint, type text, path text, name text, visibility text)
language plpgsql
stable
set search_path to ''
as $$
declare
  level int;
begin
  if r is null then
    return;
  end if;
  ns_id := (r ->> lifecycle.legacy_bridge_column(b.source, b.id_attnum))::bigint;
  parent_id := (r ->> lifecycle.legacy_bridge_column(b.source, b.parent_attnum))::bigint;
  path := r ->> lifecycle.legacy_bridge_column(b.source, b.path_attnum);
  name := r ->> lifecycle.legacy_bridge_column(b.source, b.name_attnum);
  type := case when b.type_attnum is null then b.types #>> '{}'
               else b.types ->> (r ->> lifecycle.legacy_bridge_column(b.source, b.type_attnum)) end;
  if b.visibility_attnum is not null then
    level := (r ->> lifecycle.legacy_bridge_column(b.source, b.visibility_attnum))::int;
    select v.name into visibility from lifecycle.visibility_levels v where v.rank = level;
    if visibility is null and level is not null then
      raise exception using errcode = 'NS010', message = pg_catalog.format('unknown visibility level %s', level),
        detail = pg_catalog.format('namespace_id=%s source=%s level=%s', ns_id, b.source, level),
        hint = (select 'Known levels: ' || pg_catalog.string_agg(v.rank || ' ' || v.name, ', ' order by v.rank) || '.'
                  from lifecycle.visibility_levels v);
    end if;
  end if;
  return next;
end
$$;
