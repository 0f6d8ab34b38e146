begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 3003, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);

select throws_ok(
  $$select * from lifecycle.namespace_transfer_cancel((select id from lifecycle.transfer_requests), 2002)$$,
  'NS005', null,
  'the owner of the target only is not the requester and may not cancel'
);
select throws_ok(
  $$select * from lifecycle.namespace_transfer_cancel((select id from lifecycle.transfer_requests), 9009)$$,
  'NS005', null,
  'a user without any membership may not cancel'
);
select is((select status from lifecycle.transfer_requests), 'pending', 'the refused cancels left the request pending');
select results_eq(
  $$select status from lifecycle.namespace_transfer_cancel((select id from lifecycle.transfer_requests), 3003)$$,
  $$values ('canceled'::text)$$,
  'an owner of an ancestor of the namespace may cancel someone else''s request'
);

select * from finish();
rollback;
