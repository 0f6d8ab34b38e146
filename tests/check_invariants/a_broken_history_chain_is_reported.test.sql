begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back: triggers off (session_replication_role = replica), as a
-- superuser could; rolled back with the test.
set local session_replication_role = replica;
update lifecycle.namespace_state_updates set from_state = 1 where id = (select max(id) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/doomed'));
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() where invariant = 'history_chain_broken'$$,
  $$values (lifecycle_test.id_of('acme/doomed'), 'history_chain_broken'::text)$$,
  'a history row that does not start where the previous one ended is history_chain_broken'
);

select * from finish();
rollback;
