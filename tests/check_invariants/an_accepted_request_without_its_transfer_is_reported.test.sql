begin;
select plan(2);

select lifecycle_test.create_mixed_tree();
select is_empty('select * from lifecycle.check_invariants()', 'the tree starts consistent');

-- Broken behind the gate's back (triggers off), as a superuser could: acme/moving leaves its
-- transfer while its request stays accepted, which would refuse every new request with NS009.
set local session_replication_role = replica;
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('acme/moving');
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, invariant from lifecycle.check_invariants() order by invariant$$,
  $$values (lifecycle_test.id_of('acme/moving'), 'accepted_request_without_transfer'::text),
           (lifecycle_test.id_of('acme/moving'), 'state_without_history'::text)$$,
  'an accepted request whose namespace is not in transfer is accepted_request_without_transfer'
);

select * from finish();
rollback;
