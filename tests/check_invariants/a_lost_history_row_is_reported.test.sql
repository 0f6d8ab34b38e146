begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back: triggers off (session_replication_role = replica), as a
-- superuser could; rolled back with the test.
set local session_replication_role = replica;
delete from lifecycle.namespace_state_updates where id = (select max(id) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/ops'));
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() where invariant = 'history_count_mismatch'$$,
  $$values (lifecycle_test.id_of('acme/ops'), 'history_count_mismatch'::text)$$,
  'a counted state change whose history row is gone is history_count_mismatch'
);

select * from finish();
rollback;
