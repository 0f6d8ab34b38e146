-- Who may hold a namespace for the sweep, across the transactions of its work: a row of
-- lifecycle.sweep_claims naming the claiming session (pid and start time), so two sweepers never
-- work on one namespace at once, and a claim whose session is gone (a sweeper killed) is taken
-- over. Not a session advisory lock, as before 031: its key was a constant any session could take
-- first, and the sweeper then skipped the namespace for as long as that session lived. True when
-- this session holds the claim (again, when it held it already).
create or replace function lifecycle.sweep_claim(namespace_id bigint)
returns boolean
language plpgsql
-- Definer: only the schema's owner writes lifecycle.sweep_claims.
security definer
set search_path to ''
as $$
declare
  me timestamptz := (select a.backend_start from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  claimed boolean;
begin
  delete from lifecycle.sweep_claims c
   where c.namespace_id = sweep_claim.namespace_id
     and not exists (select from pg_catalog.pg_stat_activity a where a.pid = c.pid and a.backend_start = c.backend_start);
  insert into lifecycle.sweep_claims as c (namespace_id, pid, backend_start)
  values (sweep_claim.namespace_id, pg_catalog.pg_backend_pid(), me)
  on conflict on constraint sweep_claims_pkey do update set claimed_at = pg_catalog.now()
   where c.pid = pg_catalog.pg_backend_pid() and c.backend_start = me
  returning true into claimed;
  return coalesce(claimed, false);
end
$$;
