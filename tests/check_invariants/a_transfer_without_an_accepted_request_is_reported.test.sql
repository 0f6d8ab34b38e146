begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back, as a superuser could: acme/moving's request closed while the
-- namespace stays transfer_in_progress, so nothing would ever finish the move.
set local session_replication_role = replica;
update lifecycle.transfer_requests set status = 'canceled' where namespace_id = lifecycle_test.id_of('acme/moving');
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants()$$,
  $$values (lifecycle_test.id_of('acme/moving'), 'in_progress_without_operation'::text)$$,
  'a transfer in progress without an accepted request is in_progress_without_operation'
);

select * from finish();
rollback;
