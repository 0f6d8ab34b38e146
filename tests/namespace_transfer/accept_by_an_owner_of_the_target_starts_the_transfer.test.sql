begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);

select results_eq(
  $$select request_id, status, namespace_id
      from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002)$$,
  $$select (select id from lifecycle.transfer_requests), 'accepted'::text, lifecycle_test.id_of('acme/src/team')$$,
  'accept returns the request, accepted, and the moving namespace'
);
select results_eq(
  $$select status, decided_by, decided_at from lifecycle.transfer_requests$$,
  $$values ('accepted'::text, 2002::bigint, now())$$,
  'the request is accepted by 2002'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  5::smallint,
  'the namespace is transfer_in_progress'
);
select results_eq(
  $$select from_state::int, to_state::int, event, actor_id, metadata ->> 'correlation_id'
      from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/src/team')$$,
  $$values (0, 5, 'transfer_start'::text, 1001::bigint, 'transfer-request-' || (select id from lifecycle.transfer_requests))$$,
  'one history row: transfer_start, made as the requester, correlated with the request'
);
select is(
  (select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  lifecycle_test.id_of('acme/src'),
  'accept returns before the move: the parent is still the old one'
);

select * from finish();
rollback;
