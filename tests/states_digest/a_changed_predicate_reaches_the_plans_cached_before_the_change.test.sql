-- A predicate the states trigger rewrites reaches every plan cached before the change, also one
-- that inlined it through another function: a prepared statement past its custom plans keeps a
-- generic plan (as a pooled application connection does), here of namespace_effective_state,
-- which asks state_sets_effective.
begin;
select plan(4);
select lifecycle_test.lock_rule_tables();
-- The indexes that ask state_is_own and state_sets_effective go first (the trigger refuses the
-- change below while they are there), before this test holds any row another test may wait for.
drop index lifecycle.namespaces_stateful_idx;
drop index lifecycle.namespaces_own_state_idx;

select lifecycle_test.create_mixed_tree();
select lifecycle_test.id_of('acme/ops/runbooks') as runbooks \gset
prepare effective(bigint) as
  select effective_state, read_only from lifecycle.namespace_effective_state($1);
execute effective(:runbooks); execute effective(:runbooks); execute effective(:runbooks);
execute effective(:runbooks); execute effective(:runbooks); execute effective(:runbooks);
select results_eq(format('execute effective(%s)', :runbooks), $$values ('maintenance'::text, true)$$,
  'before: maintenance, inherited from acme/ops, read-only');
select ok((select generic_plans > 0 from pg_prepared_statements where name = 'effective'),
  'the statement runs a cached generic plan');

-- Maintenance made no state of its own.
update lifecycle.states set inherited = true where name = 'maintenance';
select results_eq(format('execute effective(%s)', :runbooks), $$values ('active'::text, false)$$,
  'the cached plan no longer takes maintenance from the path');
select results_eq(format('select effective_state, read_only from lifecycle.namespace_effective_state(%s)', :runbooks),
  $$values ('active'::text, false)$$, 'and neither does a new statement');

select * from finish();
rollback;
