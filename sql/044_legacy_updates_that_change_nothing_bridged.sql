-- An UPDATE of a bridged legacy table that changes no column its state bridges read costs about
-- what it costs without bridges (issue 26, point 8). Until now every UPDATE of such a table ran
-- legacy_bridge_source, which turned both rows into JSON and looked at each bridge before finding
-- nothing to carry: GitLab touches updated_at and last_activity_at of its projects all day, and each
-- such UPDATE cost 2.3x the same UPDATE without bridges. Each bridged table now has two triggers
-- (legacy_bridge_watch): INSERT and DELETE as before, and UPDATE behind a WHEN clause that compares
-- the columns the bridges read (a function made for the table, naming no column to the catalog, so
-- the application may still alter or drop them: a broken bridge breaks only itself).
-- The bridged tables' triggers are made again here, table by table; DROP and CREATE TRIGGER take
-- a short SHARE ROW EXCLUSIVE lock on each.

{{ template "functions/legacy_bridge_watch.sql" . }}
{{ template "snapshots/044/legacy_bridge_add.sql" . }}
{{ template "snapshots/044/legacy_bridge_drop.sql" . }}
revoke all on function lifecycle.legacy_bridge_watch(regclass) from public;

do $up$
declare
  src regclass;
begin
  for src in select distinct b.source from lifecycle.legacy_bridges b
              where exists (select from pg_catalog.pg_class c where c.oid = b.source) order by 1 loop
    perform lifecycle.legacy_bridge_watch(src);
  end loop;
end
$up$;

---- create above / drop below ----

-- Each bridged table gets its one trigger back, firing on every write.
do $down$
declare
  src regclass;
begin
  for src in select distinct b.source from lifecycle.legacy_bridges b order by 1 loop
    execute pg_catalog.format('drop function if exists lifecycle.%I(record, record) cascade', 'legacy_bridge_moved_' || src::oid::text);
    continue when not exists (select from pg_catalog.pg_class c where c.oid = src);
    execute pg_catalog.format('drop trigger if exists lifecycle_legacy_bridge_update on %s', src);
    execute pg_catalog.format('drop trigger if exists lifecycle_legacy_bridge on %s', src);
    execute pg_catalog.format('create trigger lifecycle_legacy_bridge after insert or update or delete on %s '
                              'for each row execute function lifecycle.legacy_bridge_source()', src);
  end loop;
end
$down$;
-- 014's version says create, not create or replace: replaced in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_drop.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
{{ template "snapshots/037/legacy_bridge_add.sql" . }}
drop function lifecycle.legacy_bridge_watch(regclass);
