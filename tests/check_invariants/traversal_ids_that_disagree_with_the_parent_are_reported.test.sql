begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back: triggers off (session_replication_role = replica), as a
-- superuser could; rolled back with the test.
set local session_replication_role = replica;
update lifecycle.namespaces set traversal_ids = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/eng/tools')] where id = lifecycle_test.id_of('acme/eng/tools');
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() where invariant = 'traversal_ids_inconsistent'$$,
  $$values ((select id from lifecycle.namespaces where path = 'tools'), 'traversal_ids_inconsistent'::text)$$,
  'traversal_ids that skip a level are traversal_ids_inconsistent'
);

select * from finish();
rollback;
