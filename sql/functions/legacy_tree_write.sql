-- Write one tree bridge's rows of a namespace from the lifecycle's tree (docs/design.md §10.3):
-- DELETE removes them; INSERT adds the row when the table has none (id, parent, path, name,
-- visibility level, the legacy type value its types map gives the lifecycle type, row_defaults
-- for the columns it names, the change's time for required time columns without a default; the
-- table's id sequence, if it has one, moved past the id);
-- UPDATE sets parent, name and visibility where they differ, and the path where the legacy one is
-- not what the lifecycle path became from it (legacy_path_matches: GitLab's `Docs` stays). Each
-- statement touches only rows that disagree. The application's own triggers on its table run as
-- they would for its own writes: with the table's schema as search_path (GitLab's name tables
-- unqualified), set for this function's statements only. It runs as its owner, lifecycle_bridge,
-- which holds the bridged tables' writes and nothing else (as legacy_bridge_write).
create or replace function lifecycle.legacy_tree_write(b lifecycle.legacy_tree_bridges, op text, ns_id bigint, parent_id bigint, type text,
                                            path text, name text, visibility text)
returns void
language plpgsql
security definer
set search_path to ''
as $$
#variable_conflict use_variable
declare
  id_col name := lifecycle.legacy_bridge_column(b.source, b.id_attnum);
  parent_col name := lifecycle.legacy_bridge_column(b.source, b.parent_attnum);
  path_col name := lifecycle.legacy_bridge_column(b.source, b.path_attnum);
  name_col name := lifecycle.legacy_bridge_column(b.source, b.name_attnum);
  vis_col name;
  type_col name;
  legacy_type text;
  level int;
  cols text := '';
  vals text := '';
  extra record;
  id_seq text;
begin
  perform pg_catalog.set_config('search_path',
             (select pg_catalog.quote_ident(n.nspname) from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
               where c.oid = b.source), true);
  if op = 'DELETE' then
    execute pg_catalog.format('delete from %s where %I = $1', b.source, id_col) using ns_id;
    return;
  end if;
  if b.visibility_attnum is not null then
    vis_col := lifecycle.legacy_bridge_column(b.source, b.visibility_attnum);
    select v.rank into level from lifecycle.visibility_levels v where v.name = visibility;
  end if;
  if op = 'INSERT' then
    if b.type_attnum is not null then
      type_col := lifecycle.legacy_bridge_column(b.source, b.type_attnum);
      select m.key into legacy_type from pg_catalog.jsonb_each_text(b.types) m where m.value = type order by m.key limit 1;
      cols := pg_catalog.format(', %I', type_col);
      vals := ', $6';
    end if;
    if vis_col is not null then
      cols := cols || pg_catalog.format(', %I', vis_col);
      vals := vals || ', $7';
    end if;
    for extra in
      select a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) as typ, b.row_defaults ? a.attname as given
        from pg_catalog.pg_attribute a
       where a.attrelid = b.source and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' and a.attidentity = ''
         and not a.attnum = any (array[b.id_attnum, b.parent_attnum, b.path_attnum, b.name_attnum,
                                      coalesce(b.visibility_attnum, 0), coalesce(b.type_attnum, 0)])
         and (b.row_defaults ? a.attname
              or (a.attnotnull and not a.atthasdef and a.atttypid = any (array['timestamptz', 'timestamp', 'date']::regtype[])))
       order by a.attnum loop
      cols := cols || pg_catalog.format(', %I', extra.attname);
      vals := vals || case when extra.given then pg_catalog.format(', ($8 ->> %L)::%s', extra.attname, extra.typ)
                           else pg_catalog.format(', pg_catalog.now()::%s', extra.typ) end;
    end loop;
    execute pg_catalog.format('insert into %s (%I, %I, %I, %I%s) select $1, $2, $3, $4%s '
                              'where not exists (select from %s where %I = $1)',
                              b.source, id_col, parent_col, path_col, name_col, cols, vals, b.source, id_col)
      using ns_id, parent_id, path, name, null::text, legacy_type, level, b.row_defaults;
    -- The legacy table's own id sequence moves past the id too (when the column has one the
    -- schema's owner may set): the application's next INSERT does not take it.
    id_seq := pg_catalog.pg_get_serial_sequence(b.source::text, id_col);
    if id_seq is not null and pg_catalog.has_sequence_privilege(id_seq, 'SELECT, UPDATE') then
      execute pg_catalog.format('select pg_catalog.setval(%L::regclass, $1) where $1 > (select s.last_value from %s s)',
                                id_seq, id_seq::regclass)
        using ns_id;
    end if;
    return;
  end if;
  execute pg_catalog.format(
    'update %1$s set %3$I = $2, %4$I = case when lifecycle.legacy_path_matches(%4$I, $3, $1) then %4$I else $3 end, %5$I = $4%6$s '
    'where %2$I = $1 and (%3$I is distinct from $2 or not lifecycle.legacy_path_matches(%4$I, $3, $1) or %5$I is distinct from $4%7$s)',
    b.source, id_col, parent_col, path_col, name_col,
    case when vis_col is not null then pg_catalog.format(', %I = $5', vis_col) else '' end,
    case when vis_col is not null then pg_catalog.format(' or %I is distinct from $5', vis_col) else '' end)
    using ns_id, parent_id, path, name, level;
end
$$;
