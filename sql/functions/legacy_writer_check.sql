-- Refuse (NS010) to call a bridge writer that is no longer what the migrations made it, and say so
-- after a call that changed it (the caller checks before and after each call, so the change is
-- rolled back with the statement that made it). A writer runs as lifecycle_bridge, and so do the
-- application's triggers, defaults and policies its writes fire; that code, as the writer's owner,
-- could make the writer SECURITY INVOKER (then it would run as its caller, the schema's owner, and
-- so would the next trigger), change its settings, or let others execute it. Creating or renaming
-- one needs CREATE on the schema, which lifecycle_bridge does not hold.
create or replace function lifecycle.legacy_writer_check(writer regproc)
returns void
language plpgsql
stable
set search_path to ''
as $$
declare
  altered text;
begin
  select case when p.proowner <> 'lifecycle_bridge'::regrole then pg_catalog.format('its owner is %s', p.proowner::regrole)
              when not p.prosecdef then 'it is no longer SECURITY DEFINER'
              when p.proconfig is distinct from array['search_path=""'] then
                pg_catalog.format('its settings are %s', coalesce(pg_catalog.array_to_string(p.proconfig, ', '), 'none'))
              -- Executable by its owner, the roles that own the schema or its other functions (the
              -- migrating roles, whose triggers call it) and superusers; by no one else.
              when exists (select from pg_catalog.aclexplode(p.proacl) x
                            where x.grantee <> p.proowner
                              and not exists (select from pg_catalog.pg_roles r where r.oid = x.grantee and r.rolsuper)
                              and not exists (select from pg_catalog.pg_namespace n where n.oid = p.pronamespace and n.nspowner = x.grantee)
                              and not exists (select from pg_catalog.pg_proc o
                                               where o.pronamespace = p.pronamespace and o.proowner = x.grantee))
                then 'a role other than the schema''s may execute it'
         end
    into altered
    from pg_catalog.pg_proc p
   where p.oid = writer;
  if altered is not null then
    raise exception using errcode = 'NS010',
      message = pg_catalog.format('the bridges'' writer %s was altered: %s; no legacy table is written until it is repaired', writer, altered),
      detail = pg_catalog.format('writer=%s', writer),
      hint = pg_catalog.format('Code the application put on a bridged table (a trigger, a default, a policy) ran as lifecycle_bridge '
                               'and altered it: remove that code, then, as the schema''s owner: alter function %1$s security definer '
                               'reset all set search_path to ''''; revoke all on function %1$s from public; and revoke EXECUTE on it '
                               'from every role but the schema''s owner.', writer::regprocedure);
  end if;
end
$$;
