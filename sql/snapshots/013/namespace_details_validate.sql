-- state_metadata is validated on every write path against the 'state_metadata' JSON schema in
-- lifecycle.json_schemas (unknown keys, wrong types, oversize: NS010).
create or replace function lifecycle.namespace_details_validate()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  refusal text := lifecycle.state_metadata_refusal(new.state_metadata);
begin
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
