begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back: triggers off (session_replication_role = replica), as a
-- superuser could; rolled back with the test.
set local session_replication_role = replica;
delete from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/ops/runbooks');
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() where invariant = 'details_missing'$$,
  $$values (lifecycle_test.id_of('acme/ops/runbooks'), 'details_missing'::text)$$,
  'a namespace without its details row is details_missing'
);

select * from finish();
rollback;
