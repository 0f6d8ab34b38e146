-- The import keeps its queue and its progress in temporary tables of the session that its own
-- SECURITY DEFINER functions make, so they belong to the schema's owner: the caller (a worker) can
-- neither write nor drop them, and nothing the import reads between its calls is the caller's to
-- set (so no setting holds its progress: any session may SET one). A table of one of those
-- names that the caller made itself would be read as the import's, or could not be dropped by it:
-- refused with NS010 before the import writes anything. Called by the import's functions, so
-- current_user is the schema's owner.
create or replace function lifecycle.namespace_import_tables_check()
returns void
language plpgsql
set search_path to ''
as $$
declare
  planted text;
begin
  select c.relname into planted
    from pg_catalog.pg_class c
   where c.relnamespace = pg_catalog.pg_my_temp_schema()
     and c.relname in ('lifecycle_import_queue', 'lifecycle_import_progress', 'lifecycle_import_parents',
                       'lifecycle_import_verdicts')
     and pg_catalog.pg_get_userbyid(c.relowner) <> current_user
   limit 1;
  if found then
    raise exception using errcode = 'NS010',
      message = pg_catalog.format('a temporary table pg_temp.%s that the import did not make is in the way', planted),
      detail = pg_catalog.format('table=pg_temp.%s', planted),
      hint = 'Drop it, or import from another session.';
  end if;
end
$$;
