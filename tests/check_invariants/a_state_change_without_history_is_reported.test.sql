begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back: triggers off (session_replication_role = replica), as a
-- superuser could; rolled back with the test.
set local session_replication_role = replica;
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/eng/tools');
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() where invariant = 'state_without_history'$$,
  $$values (lifecycle_test.id_of('acme/eng/tools'), 'state_without_history'::text)$$,
  'a state changed without the gate (no history row) is state_without_history'
);

select * from finish();
rollback;
