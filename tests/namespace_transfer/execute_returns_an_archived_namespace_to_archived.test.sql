begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/src/team'), 'archive', 1001);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002);

select results_eq(
  $$select outcome from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('completed'::text)$$,
  'an archived namespace is moved'
);
select results_eq(
  $$select parent_id, state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/dst/team')$$,
  $$select lifecycle_test.id_of('acme/dst'), 1$$,
  'it is below the target and archived again, the state it had before the transfer'
);
select results_eq(
  $$select from_state::int, to_state::int, event from lifecycle.namespace_state_updates
     where namespace_id = lifecycle_test.id_of('acme/dst/team') order by id$$,
  $$values (0, 1, 'archive'::text), (1, 5, 'transfer_start'), (5, 1, 'transfer_done')$$,
  'history: archive, transfer_start, transfer_done back to archived'
);

select * from finish();
rollback;
