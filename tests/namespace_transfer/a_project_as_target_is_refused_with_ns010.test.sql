begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/dst'), 'project', 'site');

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst/site'), 1001)$$,
  'NS010', 'a project cannot be a new parent',
  'a project takes no children, so it cannot be the new parent'
);
select is((select count(*)::int from lifecycle.transfer_requests), 0, 'the refused request left no row');

select * from finish();
rollback;
