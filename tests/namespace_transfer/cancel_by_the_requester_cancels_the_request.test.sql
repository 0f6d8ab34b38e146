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
-- The requester loses ownership of the namespace meanwhile: the requester always may cancel.
delete from lifecycle.namespace_members where user_id = 1001;

select results_eq(
  $$select request_id, status from lifecycle.namespace_transfer_cancel((select id from lifecycle.transfer_requests), 1001)$$,
  $$select (select id from lifecycle.transfer_requests), 'canceled'::text$$,
  'cancel returns the request, canceled'
);
select results_eq(
  $$select status, decided_by, decided_at from lifecycle.transfer_requests$$,
  $$values ('canceled'::text, 1001::bigint, now())$$,
  'the request is canceled by the requester'
);
select results_eq(
  $$select parent_id, state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')$$,
  $$select lifecycle_test.id_of('acme/src'), 0$$,
  'the namespace is untouched'
);

select * from finish();
rollback;
