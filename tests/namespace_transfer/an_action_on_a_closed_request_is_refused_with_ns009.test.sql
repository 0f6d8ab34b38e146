begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);

-- canceled, then accepted
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_cancel((select max(id) from lifecycle.transfer_requests), 1001);
select throws_ok(
  $$select * from lifecycle.namespace_transfer_accept((select max(id) from lifecycle.transfer_requests), 2002)$$,
  'NS009', 'transfer request is canceled',
  'accept after cancel is refused with NS009'
);

-- declined, then canceled
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_decline((select max(id) from lifecycle.transfer_requests), 2002);
select throws_ok(
  $$select * from lifecycle.namespace_transfer_cancel((select max(id) from lifecycle.transfer_requests), 1001)$$,
  'NS009', 'transfer request is declined',
  'cancel after decline is refused with NS009'
);

-- accepted, then declined
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select max(id) from lifecycle.transfer_requests), 2002);
select throws_ok(
  $$select * from lifecycle.namespace_transfer_decline((select max(id) from lifecycle.transfer_requests), 2002)$$,
  'NS009', 'transfer request is accepted',
  'decline after accept is refused with NS009'
);

select throws_ok(
  $$select * from lifecycle.namespace_transfer_cancel((select max(id) from lifecycle.transfer_requests), 1001)$$,
  'NS009', 'transfer request is accepted',
  'cancel after accept is refused with NS009 (the accept won)'
);

-- expired by the sweep, then accepted (another namespace: team is transfer_in_progress now)
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'web');
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/web'), lifecycle_test.id_of('acme/dst'), 1001);
select lifecycle.transfer_requests_expire(now() + interval '8 days');
select throws_ok(
  $$select * from lifecycle.namespace_transfer_accept((select max(id) from lifecycle.transfer_requests), 2002)$$,
  'NS009', 'transfer request is expired',
  'accept after expiry is refused with NS009'
);

select results_eq(
  $$select status from lifecycle.transfer_requests order by id$$,
  $$values ('canceled'::text), ('declined'), ('accepted'), ('expired')$$,
  'every request kept the status it had'
);

select * from finish();
rollback;
