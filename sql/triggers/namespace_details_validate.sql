-- state_metadata is validated on every write path against the 'state_metadata' JSON schema in
-- lifecycle.json_schemas (unknown keys, wrong types, oversize: NS010).
--
-- Except what the state record writes itself (the gate, namespaces_state_gate, which says so for its one
-- UPDATE of this row in lifecycle.details_record): the keys it builds from values it has checked
-- (the time, the actor, state names from lifecycle.states) are trusted, so when nothing else in
-- the document changed, as in a change without call metadata, the document is not walked again.
-- Call metadata it merges is walked here (the API checks it too; a raw UPDATE's is not).
-- Trusting a setting is safe here: only the schema's owner can write namespace_details directly,
-- and the owner could as well disable this trigger.
--
-- The import, the legacy backfill and organization_move_in write details rows they built from
-- checked values (an object each: the import and the backfill build them with
-- jsonb_build_object, organization_move_in refuses a staged one state_metadata_refusal refuses),
-- thousands per statement, with lifecycle.importing on and the import's flag raised; those are
-- not walked one by one. With the setting on and no flag, a client set it itself: refused
-- (NS010) as settings_confirmed refuses it on lifecycle.namespaces. Asked here, first, not in a
-- WHEN clause: a WHEN clause is read back and prepared by every statement that writes the table,
-- each change of state's record among them, and a row the import writes still calls one trigger.
-- That every row's state_metadata is an object is this trigger's and those writers' (no CHECK
-- constraint says it again: one is read back and prepared by every such statement too).
create or replace function lifecycle.namespace_details_validate()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  trusted constant text[] := array['last_updated_at', 'last_changed_by_user_id', 'previous_state', 'preserved_state'];
  refusal text;
begin
  if pg_catalog.current_setting('lifecycle.importing', true) = 'on' then
    if not lifecycle.transaction_flag_raised('importing') then
      perform lifecycle.importing_unconfirmed_refuse(tg_table_name);
    end if;
    return new;
  end if;
  if tg_op = 'UPDATE'
     and coalesce(pg_catalog.current_setting('lifecycle.details_record', true), '') = new.namespace_id::text
     and pg_catalog.jsonb_typeof(new.state_metadata) = 'object'
     and (new.state_metadata - trusted) = (old.state_metadata - trusted) then
    return new;
  end if;
  refusal := lifecycle.state_metadata_refusal(new.state_metadata);
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid state_metadata', detail = refusal,
      hint = 'Allowed keys and types: lifecycle.json_schemas, name state_metadata.';
  end if;
  return new;
end
$$;

create or replace trigger namespace_details_validate
  before insert or update on lifecycle.namespace_details
  for each row
  execute function lifecycle.namespace_details_validate();
