-- lifecycle.importing lets the import's and the backfill's statements skip the row triggers of
-- lifecycle.namespaces and the checks of lifecycle.namespace_details (they check their rows
-- set-based), and
-- organization_move_out_finish's deletes skip the tree bridges' write-back (namespaces_6_legacy_tree). It is a
-- setting because the row triggers' WHEN clauses read it for nothing on every other write; any
-- session can set it, even in the middle of its own statement (a set_config in the SELECT that
-- feeds an INSERT), so before each row, first of the row triggers, this refuses (NS010) a row
-- written or deleted while it is on without the import's flag (transaction_flag_raise): a client
-- that sets it is refused, never let past the rules. Deletes too: a worker's hard delete
-- (namespace_hard_delete) run with it set would otherwise leave the tree-bridged legacy rows of
-- the namespaces it removed (a deleted GitLab project still in GitLab's tables). The import and the backfill pay one probe of
-- lifecycle.transaction_flags per row (none when the schema's owner is a superuser: their writes
-- then run in replica mode, where these triggers do not fire). A details row asks the same in
-- namespace_details_validate, its one row trigger (not a trigger like this one: its WHEN clause
-- would be read back and prepared by every statement that writes the details, every change of
-- state among them);
-- importing_unconfirmed_refuse words the refusal for both.
create or replace function lifecycle.settings_confirmed()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  if not lifecycle.transaction_flag_raised('importing') then
    perform lifecycle.importing_unconfirmed_refuse(tg_table_name);
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

create or replace trigger namespaces_0_settings_confirmed
  before insert or update or delete on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) = 'on')
  execute function lifecycle.settings_confirmed();
