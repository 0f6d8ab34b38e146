-- namespace_effective_state is the hottest read: plain SQL with a SQL-standard body, no SECURITY
-- DEFINER and no SET clause, so the planner inlines it into the caller's query (no function scan,
-- no planning per call), with the names and flags of states folded in as constants; it runs as
-- the caller, and the application role may call it.
begin;
select plan(6);

select lifecycle_test.create_mixed_tree();
grant usage on schema tap, lifecycle_test to lifecycle_app;

select results_eq(
  $$select p.prosecdef, p.proconfig is null, p.prosqlbody is not null from pg_proc p
     where p.oid = 'lifecycle.namespace_effective_state(bigint)'::regprocedure$$,
  $$values (false, true, true)$$,
  'no SECURITY DEFINER, no SET clause, a SQL-standard body'
);
create function pg_temp.plan_of(q text) returns setof text language plpgsql as $$
begin
  return query execute 'explain (costs off) ' || q;
end $$;
select is_empty(
  format($$select * from pg_temp.plan_of('select * from lifecycle.namespace_effective_state(%s)') p where p like '%%Function Scan%%'$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent')),
  'the plan has no function scan: the function was inlined'
);

select is_empty(
  format($$select * from pg_temp.plan_of('select * from lifecycle.namespace_effective_state(%s)') p where p like '%%states%%'$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent')),
  'the plan reads no lifecycle.states: names and flags are constants of the digest'
);

set local role lifecycle_app;
select is_empty(
  format($$select * from pg_temp.plan_of('select * from lifecycle.namespace_effective_state(%s)') p where p like '%%Function Scan%%'$$,
         lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent')),
  'inlined for the application role too (it may execute the digest functions)'
);
select results_eq(
  format($$select effective_state, inherited_from_namespace_id, self_or_ancestor_archived, read_only
             from lifecycle.namespace_effective_state(%s)$$, lifecycle_test.id_of('acme/eng/platform/infra/storage/backup/agent')),
  format($$values ('deletion_scheduled'::text, %s::bigint, true, true)$$, lifecycle_test.id_of('acme/eng/platform/infra/storage')),
  'the application role reads it, as itself'
);
select is_empty($$select * from lifecycle.namespace_effective_state(-1)$$, 'no row for a namespace that does not exist');
reset role;

select * from finish();
rollback;
