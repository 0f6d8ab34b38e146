-- Whether the calling role may act as the system (actor_id null): superusers and members of
-- lifecycle_worker. Inside a SECURITY DEFINER function current_user is the owner, so the caller is
-- taken from the role setting (SET ROLE, which definer functions leave alone), else session_user.
-- PL/pgSQL for its cached plan (a SQL function with a SET clause is planned on every call).
create or replace function lifecycle.caller_may_act_as_system()
returns boolean
language plpgsql
stable
set search_path to ''
as $$
begin
  return coalesce(
    (select r.rolsuper or pg_catalog.pg_has_role(r.oid, 'lifecycle_worker', 'MEMBER')
       from pg_catalog.pg_roles r
      where r.rolname = coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)),
    false);
end
$$;
