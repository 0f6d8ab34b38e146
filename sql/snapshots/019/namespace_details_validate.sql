-- state_metadata is validated on every write path against the 'state_metadata' JSON schema in
-- lifecycle.json_schemas (unknown keys, wrong types, oversize: NS010).
--
-- Except what the state record writes itself (the gate, namespaces_state_gate, which says so for its one
-- UPDATE of this row in lifecycle.details_record): the keys it builds from values it has checked
-- (the time, the actor, state names from lifecycle.states) are trusted, so when nothing else in
-- the document changed, as in a change without call metadata, the document is not walked again.
-- Call metadata it merges is walked here as before (the API checked it too; a raw UPDATE's was not).
-- Trusting a setting is safe here: only the schema's owner can write namespace_details directly,
-- and the owner could as well disable this trigger.
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

-- The import writes details rows it built from checked values, thousands per statement; they are
-- not walked one by one (lifecycle.importing is set only inside namespace_import_batch, and the
-- application role cannot write namespace_details at all).
create or replace trigger namespace_details_validate
  before insert or update on lifecycle.namespace_details
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespace_details_validate();
