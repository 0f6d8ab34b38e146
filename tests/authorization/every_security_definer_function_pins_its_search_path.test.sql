begin;
select plan(2);

select isnt_empty(
  $$select p.oid from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'lifecycle' and p.prosecdef$$,
  'schema lifecycle has SECURITY DEFINER functions (the check below is not vacuous)'
);
select is_empty(
  $$select p.oid::regprocedure::text
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'lifecycle'
       and p.prosecdef
       and not exists (select from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')$$,
  'every SECURITY DEFINER function in schema lifecycle pins its search_path'
);

select * from finish();
rollback;
