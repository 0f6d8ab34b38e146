begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'far');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/far'), 'group', 'inner');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/far/inner'), 'group', 'leaf');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/far'), 'deletion_scheduled', null);

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/far/inner'), 1001)$$,
  'NS002', 'cannot move below acme/far/inner: acme/far is deletion_scheduled',
  'a target whose parent is scheduled for deletion is refused'
);
select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/far/inner/leaf'), 1001)$$,
  'NS002', 'cannot move below acme/far/inner/leaf: acme/far is deletion_scheduled',
  'a target whose grandparent is scheduled for deletion is refused'
);
select is((select count(*)::int from lifecycle.transfer_requests), 0, 'the refused request left no row');

select * from finish();
rollback;
