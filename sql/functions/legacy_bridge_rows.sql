-- One query over every bridge's legacy data: a row (namespace_id, bridge_id, holds, at, actor) for
-- each namespace a bridge speaks for, holds saying whether its legacy data puts it in the bridged
-- state (docs/design.md §10). A flag or column bridge speaks for the namespaces with a row in its
-- table (one that inserts missing rows for every namespace of its types, not holding without a
-- row); an existence bridge for every namespace (of its types), holding where a row exists. Built
-- from the bridges' catalog-checked identifiers, quoted; lifecycle_bridge_check and
-- lifecycle_bridge_backfill run it. A broken bridge (legacy_bridge_broken) stops them with NS010
-- naming it and its repair: a check that left it out would report agreement it cannot know.
create or replace function lifecycle.legacy_bridge_rows()
returns table (namespace_id bigint, bridge_id bigint, holds boolean, at timestamptz, actor bigint)
language plpgsql
stable
security definer
set search_path to ''
-- No policy the application's role puts on its table runs with the rights this runs with: a read
-- such a policy would filter is refused (42501) instead (docs/reliability.md).
set row_security to off
as $$
declare
  b lifecycle.legacy_bridges;
  parts text[] := '{}'::text[];
  ns_col name;
  when_col name;
  at_expr text;
  by_expr text;
  broken text;
begin
  for b in select * from lifecycle.legacy_bridges x order by x.id loop
    broken := lifecycle.legacy_bridge_broken(b);
    if broken is not null then
      perform lifecycle.legacy_bridge_refuse(b, broken, null);
    end if;
    ns_col := lifecycle.legacy_bridge_column(b.source, b.namespace_attnum);
    at_expr := case when b.at_attnum is not null
                 then pg_catalog.format('max(s.%I)::timestamptz', lifecycle.legacy_bridge_column(b.source, b.at_attnum))
                 else 'null::timestamptz' end;
    by_expr := case when b.by_attnum is not null
                 then pg_catalog.format('max(s.%I)::bigint', lifecycle.legacy_bridge_column(b.source, b.by_attnum))
                 else 'null::bigint' end;
    if b.kind <> 'exists' and b.insert_missing then
      -- Every namespace of its types: holding where its row says so, not holding without a row.
      when_col := lifecycle.legacy_bridge_column(b.source, b.when_attnum);
      parts := parts || pg_catalog.format(
        'select n.id, %s::bigint, coalesce(s.holds, false), s.at, s.actor from lifecycle.namespaces n '
        'left join (select s.%I::bigint as ns, bool_or(%s) as holds, %s as at, %s as actor from %s s group by 1) s on s.ns = n.id '
        'where %L::text[] is null or n.type = any (%L::text[])',
        b.id, ns_col,
        case b.kind when 'flag' then pg_catalog.format('coalesce(s.%I, false)', when_col)
                    else pg_catalog.format('s.%I is not null', when_col) end,
        at_expr, by_expr, b.source, b.namespace_types, b.namespace_types);
    elsif b.kind = 'exists' then
      parts := parts || pg_catalog.format(
        'select n.id, %s::bigint, s.ns is not null, s.at, s.actor from lifecycle.namespaces n '
        'left join (select s.%I::bigint as ns, %s as at, %s as actor from %s s group by 1) s on s.ns = n.id '
        'where %L::text[] is null or n.type = any (%L::text[])',
        b.id, ns_col, at_expr, by_expr, b.source, b.namespace_types, b.namespace_types);
    else
      when_col := lifecycle.legacy_bridge_column(b.source, b.when_attnum);
      parts := parts || pg_catalog.format(
        'select s.%I::bigint, %s::bigint, bool_or(%s), %s, %s from %s s '
        'where %L::text[] is null or exists (select from lifecycle.namespaces n where n.id = s.%I and n.type = any (%L::text[])) '
        'group by 1',
        ns_col, b.id,
        case b.kind when 'flag' then pg_catalog.format('coalesce(s.%I, false)', when_col)
                    else pg_catalog.format('s.%I is not null', when_col) end,
        at_expr, by_expr, b.source, b.namespace_types, ns_col, b.namespace_types);
    end if;
  end loop;
  if pg_catalog.cardinality(parts) = 0 then
    return;
  end if;
  return query execute pg_catalog.array_to_string(parts, ' union all ');
end
$$;
