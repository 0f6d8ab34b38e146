begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/dst'), 'project', 'team');

select throws_ok(
  $$select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002)$$,
  'NS006', 'path acme/dst/team is taken',
  'the target is checked again at accept'
);
select is((select status from lifecycle.transfer_requests), 'pending', 'the request stays pending');
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  0::smallint,
  'the namespace did not enter transfer_in_progress'
);

select * from finish();
rollback;
