-- Every change of lifecycle.states rewrites its digest (lifecycle.states_digest_write): the names,
-- the flag masks and the named predicates the statements and the indexes read as constants.
create or replace function lifecycle.states_digest()
returns trigger
language plpgsql
set search_path to ''
as $$
begin
  perform lifecycle.states_digest_write();
  return null;
end
$$;

create or replace trigger states_digest
  after insert or update or delete or truncate on lifecycle.states
  for each statement execute function lifecycle.states_digest();
