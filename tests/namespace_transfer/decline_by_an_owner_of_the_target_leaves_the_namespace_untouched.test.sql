begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);

select results_eq(
  $$select request_id, status from lifecycle.namespace_transfer_decline((select id from lifecycle.transfer_requests), 2002)$$,
  $$select (select id from lifecycle.transfer_requests), 'declined'::text$$,
  'decline returns the request, declined'
);
select results_eq(
  $$select status, decided_by, decided_at from lifecycle.transfer_requests$$,
  $$values ('declined'::text, 2002::bigint, now())$$,
  'the request is declined by 2002'
);
select results_eq(
  $$select parent_id, state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')$$,
  $$select lifecycle_test.id_of('acme/src'), 0$$,
  'the namespace stays below its parent, active'
);
select is(
  (select count(*)::int from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/src/team')),
  0,
  'no history was written for the namespace'
);

select * from finish();
rollback;
