-- Raise NS010 for a row written (or, of a namespace, deleted) while lifecycle.importing is on
-- without the import's flag (transaction_flag_raise): a client set the setting itself. The one
-- wording of that refusal, for the two triggers that ask it (settings_confirmed on
-- lifecycle.namespaces, namespace_details_validate on lifecycle.namespace_details); called only
-- when refusing, so a row that passes pays no call for it.
create or replace function lifecycle.importing_unconfirmed_refuse(table_name text)
returns void
language plpgsql
stable
set search_path to ''
as $$
begin
  raise exception using errcode = 'NS010', message = 'lifecycle.importing is set outside the import',
    detail = pg_catalog.format('table=%s setting=lifecycle.importing', table_name),
    hint = 'RESET lifecycle.importing: the import and the legacy backfill set it for their own statements.';
end
$$;
