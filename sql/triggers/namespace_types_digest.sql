-- Every change of lifecycle.namespace_types rewrites its digest (lifecycle.namespace_types_digest_write):
-- the type predicates the checks of lifecycle.namespaces and the functions read as constants.
create or replace function lifecycle.namespace_types_digest()
returns trigger
language plpgsql
set search_path to ''
as $$
begin
  perform lifecycle.namespace_types_digest_write();
  return null;
end
$$;

create or replace trigger namespace_types_digest
  after insert or update or delete or truncate on lifecycle.namespace_types
  for each statement execute function lifecycle.namespace_types_digest();
