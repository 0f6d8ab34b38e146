begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
update lifecycle.namespaces set visibility = 'public' where id = lifecycle_test.id_of('acme');
update lifecycle.namespaces set visibility = 'public' where id = lifecycle_test.id_of('acme/src');
update lifecycle.namespaces set visibility = 'internal' where id = lifecycle_test.id_of('acme/src/team');

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001)$$,
  'NS002', 'acme/src/team is internal, more visible than the new parent acme/dst (private)',
  'an internal namespace cannot move below a private parent'
);
select is((select count(*)::int from lifecycle.transfer_requests), 0, 'the refused request left no row');

select * from finish();
rollback;
