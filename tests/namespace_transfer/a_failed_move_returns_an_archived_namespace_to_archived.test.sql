begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/src/team'), 'archive', 1001);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002);
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/dst');

select results_eq(
  $$select outcome from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('failed'::text)$$,
  'the move fails'
);
select results_eq(
  $$select parent_id, state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')$$,
  $$select lifecycle_test.id_of('acme/src'), 1$$,
  'the namespace stays where it was, archived again'
);

select * from finish();
rollback;
