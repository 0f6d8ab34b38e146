begin;
select plan(2);

-- transfer_start's ancestor guard, checked at request time: the nearest own state (archived)
-- must not mask a deletion further up.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'group', 'sub');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/src/team'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/src'), 'deletion_scheduled', null);

select throws_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team/sub'), lifecycle_test.id_of('acme/dst'), 1001)$$,
  'NS002', 'cannot change namespace state from ancestor_inherited to transfer_in_progress: ancestor acme/src is deletion_scheduled',
  'a namespace below a group scheduled for deletion (through an archived parent) cannot be offered'
);
select is((select count(*)::int from lifecycle.transfer_requests), 0, 'the refused request left no row');

select * from finish();
rollback;
