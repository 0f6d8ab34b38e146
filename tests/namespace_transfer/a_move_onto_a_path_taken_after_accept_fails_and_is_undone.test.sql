begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002);
-- After the accept, a live child of the target takes the path.
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/dst'), 'project', 'team');

select results_eq(
  $$select outcome, old_full_path, new_full_path from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('failed'::text, 'acme/src/team'::text, null::text)$$,
  'execute reports the move as failed'
);
select is(
  (select parent_id from lifecycle.namespaces where type = 'group' and path = 'team'),
  lifecycle_test.id_of('acme/src'),
  'the namespace did not move'
);
select results_eq(
  $$select status, last_error from lifecycle.transfer_requests$$,
  $$values ('failed'::text, 'NS006: path acme/dst/team is taken')$$,
  'the request is failed with last_error'
);
select results_eq(
  $$select state::int, state_metadata ->> 'last_error'
      from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
     where n.id = lifecycle_test.id_of('acme/src/team')$$,
  $$values (0, 'NS006: path acme/dst/team is taken'::text)$$,
  'the namespace is active again with last_error in its state_metadata'
);

select * from finish();
rollback;
