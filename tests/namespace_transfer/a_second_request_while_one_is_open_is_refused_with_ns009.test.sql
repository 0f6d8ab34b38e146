begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'other');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme/other'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/other'), 1001)$$,
  'NS009', 'namespace already has an open transfer request (pending)',
  'a second request while one is pending is refused, even to another target'
);
select is((select count(*)::int from lifecycle.transfer_requests), 1, 'still one request');

select * from lifecycle.namespace_transfer_cancel((select id from lifecycle.transfer_requests), 1001);
select lives_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/other'), 1001)$$,
  'once the open request is canceled, a new one may be made'
);

select * from finish();
rollback;
