-- Settings are validated on every write (NS010 with the rule that was broken).
create or replace function lifecycle.settings_validate()
returns trigger
language plpgsql
set search_path to ''
as $$
declare
  refusal text := lifecycle.settings_refusal(new);
begin
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid settings', detail = refusal,
      hint = 'See the comments on lifecycle.settings for the allowed ranges.';
  end if;
  new.updated_at := pg_catalog.now();
  return new;
end
$$;

create or replace trigger settings_validate
  before insert or update on lifecycle.settings
  for each row execute function lifecycle.settings_validate();
