begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'ops');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'docs');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 3003, 50);
-- team and web: pending, due in 7 days; ops: pending, due in 10 days; docs: accepted at once.
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/web'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/ops'), lifecycle_test.id_of('acme/dst'), 1001);
update lifecycle.transfer_requests set expires_at = now() + interval '10 days' where namespace_id = lifecycle_test.id_of('acme/src/ops');
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/docs'), lifecycle_test.id_of('acme/dst'), 3003);

select is(
  lifecycle.transfer_requests_expire(now() + interval '8 days'),
  2,
  'two pending requests were due: the count is returned'
);
select results_eq(
  $$select lifecycle.namespace_full_path(namespace_id), status, decided_at is not null
      from lifecycle.transfer_requests order by id$$,
  $$values ('acme/src/team'::text, 'expired'::text, true), ('acme/src/web', 'expired', true),
           ('acme/src/ops', 'pending', false), ('acme/src/docs', 'accepted', true)$$,
  'the due pending requests expired; a later one and an accepted one did not'
);
select is(
  lifecycle.transfer_requests_expire(now() + interval '8 days'),
  0,
  'a second run expires nothing'
);

select * from finish();
rollback;
