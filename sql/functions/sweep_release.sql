-- Give a namespace's sweep claim back (sweep_claim). True when this session held it.
create or replace function lifecycle.sweep_release(namespace_id bigint)
returns boolean
language plpgsql
-- Definer: only the schema's owner writes lifecycle.sweep_claims.
security definer
set search_path to ''
as $$
begin
  delete from lifecycle.sweep_claims c
   where c.namespace_id = sweep_release.namespace_id and c.pid = pg_catalog.pg_backend_pid()
     and c.role_id = (select a.usesysid from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  return found;
end
$$;
