-- Who may hold a namespace for the sweep, across the transactions of its work: a row of
-- lifecycle.sweep_claims naming the claiming session (pid and role), so two sweepers never work on
-- one namespace at once, and a claim whose session is gone (a sweeper killed) is taken over. Not a
-- session advisory lock: its key would be a constant any session could take first, and the
-- sweeper would then skip the namespace for as long as that session lived. The session is named
-- by what pg_stat_activity shows every role (pid, usesysid), since this function reads it as the
-- schema's owner, which on a managed service is no superuser; not by its backend_start, which is
-- shown only to the session's role and pg_read_all_stats: such an owner would read null and could
-- make no claim. A pid reused by a session of the same role keeps the
-- claim held until that session ends; a live claim is never taken. True when this session holds
-- the claim (again, when it held it already).
create or replace function lifecycle.sweep_claim(namespace_id bigint)
returns boolean
language plpgsql
-- Definer: only the schema's owner writes lifecycle.sweep_claims.
security definer
set search_path to ''
as $$
declare
  me oid := (select a.usesysid from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  claimed boolean;
begin
  delete from lifecycle.sweep_claims c
   where c.namespace_id = sweep_claim.namespace_id
     and not exists (select from pg_catalog.pg_stat_activity a where a.pid = c.pid and a.usesysid = c.role_id);
  insert into lifecycle.sweep_claims as c (namespace_id, pid, role_id)
  values (sweep_claim.namespace_id, pg_catalog.pg_backend_pid(), me)
  on conflict on constraint sweep_claims_pkey do update set claimed_at = pg_catalog.now()
   where c.pid = pg_catalog.pg_backend_pid() and c.role_id = me
  returning true into claimed;
  return coalesce(claimed, false);
end
$$;
