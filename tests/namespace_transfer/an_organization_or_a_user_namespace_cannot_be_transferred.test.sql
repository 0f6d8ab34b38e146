begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(null, 'organization', 'beta');
select lifecycle_test.create_namespace(null, 'user', 'alice');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme'), 3003, 50),
  (lifecycle_test.id_of('beta'), 3003, 50),
  (lifecycle_test.id_of('alice'), 3003, 50);

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('beta'), lifecycle_test.id_of('acme/dst'), 3003)$$,
  'NS010', 'a namespace of type organization cannot be transferred',
  'an organization does not move'
);
select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('alice'), lifecycle_test.id_of('acme/dst'), 3003)$$,
  'NS010', 'a namespace of type user cannot be transferred',
  'a user namespace does not move'
);
select is((select count(*)::int from lifecycle.transfer_requests), 0, 'the refused request left no row');

select * from finish();
rollback;
