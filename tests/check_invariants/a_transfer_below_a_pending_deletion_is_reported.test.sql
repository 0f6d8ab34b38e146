begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back: triggers off (session_replication_role = replica), as a
-- superuser could; rolled back with the test.
set local session_replication_role = replica;
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/doomed/data');
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() where invariant = 'transfer_below_pending_operation'$$,
  $$values (lifecycle_test.id_of('acme/doomed/data'), 'transfer_below_pending_operation'::text)$$,
  'a namespace moving below one being deleted is transfer_below_pending_operation'
);

select * from finish();
rollback;
