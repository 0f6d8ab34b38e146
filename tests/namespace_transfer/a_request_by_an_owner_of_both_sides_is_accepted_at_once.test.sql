begin;
select plan(4);

-- 3003 owns acme, so both the namespace and the new parent: the offer is accepted in the same call.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 3003, 50);

select results_eq(
  $$select status from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 3003)$$,
  $$values ('accepted'::text)$$,
  'the request returns accepted'
);
select results_eq(
  $$select status, decided_by from lifecycle.transfer_requests$$,
  $$values ('accepted'::text, 3003::bigint)$$,
  'the request row is accepted, decided by the requester'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  5::smallint,
  'the namespace is transfer_in_progress'
);
select is(
  (select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  lifecycle_test.id_of('acme/src'),
  'accepting does not move it yet: the move is namespace_transfer_execute''s'
);

select * from finish();
rollback;
