begin;
select plan(3);

-- transfer_start's descendant guard, checked at request time: a grandchild is already moving.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'group', 'sub');
select lifecycle_test.create_in_state(lifecycle_test.id_of('acme/src/team/sub'), 'app', 'transfer_in_progress');

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001)$$,
  'NS003', 'cannot change namespace state from ancestor_inherited to transfer_in_progress: descendant acme/src/team/sub/app is transfer_in_progress',
  'a namespace with a descendant in transfer_in_progress cannot be offered'
);
select is((select count(*)::int from lifecycle.transfer_requests), 0, 'the refused request left no row');
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/team')),
  0::smallint,
  'the namespace stays active'
);

select * from finish();
rollback;
