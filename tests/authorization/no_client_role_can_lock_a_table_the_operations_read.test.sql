begin;
select plan(3);

-- LOCK TABLE in ACCESS EXCLUSIVE mode needs UPDATE, DELETE or TRUNCATE of the whole table. No
-- client role holds one on a table the operations read: the application's removals are functions
-- and its changes column privileges, so a session of the application (an adopted forge's role
-- included, a member of lifecycle_app with all rights on its own tables) cannot stall the
-- product's operations in every organization. The workers' only such table is their own staging
-- of an import, which no operation reads.
create function pg_temp.lockable(role_name text) returns text[] language plpgsql as $$
declare
  t regclass;
  out text[] := '{}';
begin
  execute format('set local role %I', role_name);
  for t in select c.oid::regclass from pg_class c
            where c.relnamespace = 'lifecycle'::regnamespace and c.relkind in ('r', 'p') order by c.relname loop
    begin
      execute format('lock table %s in access exclusive mode nowait', t);
      out := out || t::text;
    exception when insufficient_privilege then
      null;
    end;
  end loop;
  reset role;
  return out;
end
$$;
create role nslt_no_grants_lock nologin;

select is(pg_temp.lockable('lifecycle_app'), '{}'::text[], 'the application can lock no table of the product');
select is(pg_temp.lockable('lifecycle_worker'), array['lifecycle.namespace_imports'], 'the workers only the import''s staging');
select is(pg_temp.lockable('nslt_no_grants_lock'), '{}'::text[], 'a login with no grants none');

select * from finish();
rollback;
