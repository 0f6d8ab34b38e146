-- Whether the import's writes skip the foreign keys and triggers that would re-check what it
-- checked itself (namespace_import_batch): yes unless lifecycle.import_skip_rechecks says off.
-- The setting is the caller's, so it is read strictly: on or off (true/false, yes/no, 1/0, any
-- case; unset or empty is on), anything else NS010, never a guess. Either answer imports the same
-- rows with the same verdicts; off only keeps more checks running.
create or replace function lifecycle.namespace_import_skips_rechecks()
returns boolean
language plpgsql
stable
set search_path to ''
as $$
declare
  said constant text := pg_catalog.lower(pg_catalog.btrim(
    coalesce(pg_catalog.current_setting('lifecycle.import_skip_rechecks', true), '')));
begin
  if said in ('', 'on', 'true', 'yes', '1') then
    return true;
  elsif said in ('off', 'false', 'no', '0') then
    return false;
  end if;
  raise exception using errcode = 'NS010', message = 'lifecycle.import_skip_rechecks is neither on nor off',
    hint = 'SET lifecycle.import_skip_rechecks to on or off, or RESET it.';
end
$$;
