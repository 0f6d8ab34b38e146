begin;
select plan(2);

-- A transfer leaves progress {done: 2, total: 2} in the namespace's state_metadata (the group and
-- one project). The subtree then grows to 6 descendants and is hard-deleted one row at a time:
-- the old progress must not make a batch fail (a done below 0 is invalid state_metadata, NS010),
-- or the delete could never advance.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 3003, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 3003);
select * from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'));
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/dst/team'), 'project', p)
  from unnest(array['a', 'b', 'c', 'd', 'e']) p;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/dst/team'), 'deletion_scheduled', 3003);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/dst/team'), 'deletion_in_progress', 3003);
create temp table root as select lifecycle_test.id_of('acme/dst/team') as id;

select lives_ok(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 1)$$,
  'a batch of one goes through'
);
select is(
  (select count(*)::int from lifecycle.namespaces where (select id from pg_temp.root) = any (traversal_ids)),
  6,
  'one descendant is gone, five and the root remain'
);

select * from finish();
rollback;
