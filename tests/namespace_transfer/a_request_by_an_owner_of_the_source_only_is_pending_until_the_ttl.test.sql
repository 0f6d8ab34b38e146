begin;
select plan(5);

-- 1001 owns the source side only: the request waits for the target's owner, for the TTL of
-- lifecycle.settings (set to 3 days here, so the default cannot pass by coincidence).
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
update lifecycle.settings set transfer_request_ttl = interval '3 days';

select results_eq(
  $$select status, expires_at
      from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001)$$,
  $$values ('pending'::text, now() + interval '3 days')$$,
  'the request is pending and expires after lifecycle.settings.transfer_request_ttl'
);
select results_eq(
  $$select namespace_id, from_parent_id, to_parent_id, requested_by, status, expires_at, decided_by
      from lifecycle.transfer_requests$$,
  $$select lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/src'), lifecycle_test.id_of('acme/dst'),
           1001::bigint, 'pending'::text, now() + (select transfer_request_ttl from lifecycle.settings), null::bigint$$,
  'one request row: from the current parent to the target, by 1001, undecided'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  0::smallint,
  'the namespace stays active while the request is pending'
);
select is(
  (select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  lifecycle_test.id_of('acme/src'),
  'the namespace has not moved'
);
select is(
  (select count(*)::int from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/src/team')),
  0,
  'a pending request writes no history'
);

select * from finish();
rollback;
