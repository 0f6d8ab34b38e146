-- Delete the rows of a namespace from one of the application's tables (a state bridge's table
-- without a tree bridge, when the namespace is deleted: GitLab's namespace_settings and
-- group_deletion_schedules rows go with their namespace). A writer of the bridges: it runs as
-- lifecycle_bridge, as the triggers of the application's table then do (legacy_writer_check),
-- with the table's schema as search_path for those triggers.
create or replace function lifecycle.legacy_rows_delete(source regclass, namespace_column name, ns_id bigint)
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  perform pg_catalog.set_config('search_path',
             (select pg_catalog.quote_ident(n.nspname) from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
               where c.oid = source), true);
  execute pg_catalog.format('delete from %s where %I = $1', source, namespace_column) using ns_id;
end
$$;
