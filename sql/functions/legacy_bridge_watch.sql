-- The triggers of a table's state bridges, made again from its bridges now (legacy_bridge_add,
-- legacy_bridge_drop; docs/design.md §10.2, Cost). An INSERT or DELETE always reaches
-- legacy_bridge_source (lifecycle_legacy_bridge). An UPDATE reaches it (lifecycle_legacy_bridge_update)
-- only when it changes a column a bridge of the table reads to decide (a namespace or condition
-- column): GitLab rewrites updated_at, last_activity_at and the like on its rows all day, and each such
-- UPDATE would pay for the trigger's whole-row work (2.3x the UPDATE without bridges, issue 26).
--
-- The test is a WHEN clause, evaluated on the row as stored (changes made by BEFORE triggers
-- included, unlike UPDATE OF, which looks only at the SET list), calling a function made here for
-- the table, lifecycle.legacy_bridge_moved_<table oid>(record, record), which compares those columns
-- by name. Neither the clause nor the function names a column to the catalog (whole-row arguments of
-- type record), so the application may still ALTER or DROP the columns and the table (§10.2: a broken
-- bridge breaks only itself): a column renamed, dropped or changed to a type without an equality
-- makes the function fail, and it then answers true: the trigger fires and decides from the catalog,
-- as without the clause. The comparisons name pg_catalog's operators, so no search_path changes
-- what they mean.
-- The function reads nothing but its arguments; it keeps PUBLIC's EXECUTE, which every role that
-- updates the table needs for the clause.
create or replace function lifecycle.legacy_bridge_watch(source regclass)
returns void
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  fn text := 'legacy_bridge_moved_' || source::oid::text;
  gone boolean := not exists (select from pg_catalog.pg_class c where c.oid = source);
  cols name[];
begin
  if not gone then
    execute pg_catalog.format('drop trigger if exists lifecycle_legacy_bridge_update on %s', source);
    execute pg_catalog.format('drop trigger if exists lifecycle_legacy_bridge on %s', source);
  end if;
  execute pg_catalog.format('drop function if exists lifecycle.%I(record, record)', fn);
  if gone or not exists (select from lifecycle.legacy_bridges b where b.source = legacy_bridge_watch.source) then
    return;
  end if;

  -- The columns the bridges read, by name (each quoted with %I): what the function compares.
  select pg_catalog.array_agg(a.attname order by a.attnum)
    into cols
    from pg_catalog.pg_attribute a
   where a.attrelid = source and a.attnum > 0 and not a.attisdropped
     and a.attnum in (select b.namespace_attnum from lifecycle.legacy_bridges b where b.source = legacy_bridge_watch.source
                      union
                      select b.when_attnum from lifecycle.legacy_bridges b where b.source = legacy_bridge_watch.source);

  execute pg_catalog.format(
    'create trigger lifecycle_legacy_bridge after insert or delete on %s '
    'for each row execute function lifecycle.legacy_bridge_source()', source);
  if cols is null then
    -- Every column the bridges read is gone: each UPDATE goes to the trigger, which refuses or lets
    -- it go as a broken bridge does.
    execute pg_catalog.format(
      'create trigger lifecycle_legacy_bridge_update after update on %s '
      'for each row execute function lifecycle.legacy_bridge_source()', source);
    return;
  end if;
  execute pg_catalog.format($f$
create function lifecycle.%I(o record, n record)
returns boolean
language plpgsql
stable
as $body$
begin
  -- Does this UPDATE change a column the table's state bridges read? Null: no.
  return %s;
exception when others then
  -- A column renamed, dropped or of another type now: the trigger decides.
  return true;
end
$body$;
comment on function lifecycle.%I(record, record) is %L$f$,
    fn,
    (select pg_catalog.string_agg(pg_catalog.format(
              '(o.%1$I is null) operator(pg_catalog.<>) (n.%1$I is null) or o.%1$I operator(pg_catalog.<>) n.%1$I', c),
            E'\n      or ')
       from pg_catalog.unnest(cols) c),
    fn,
    pg_catalog.format('Made by lifecycle.legacy_bridge_watch: the WHEN clause of the state bridges'' UPDATE trigger on %s.', source));
  execute pg_catalog.format(
    'create trigger lifecycle_legacy_bridge_update after update on %s '
    'for each row when (lifecycle.%I(old, new)) execute function lifecycle.legacy_bridge_source()', source, fn);
end
$$;
