begin;
select plan(3);

-- A namespace pending deletion frees its path (docs/design.md §5, soft delete): the move may take it.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 3003, 50);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/dst'), 'project', 'team');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/dst/team'), 'deletion_scheduled', null);

select results_eq(
  $$select status from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 3003)$$,
  $$values ('accepted'::text)$$,
  'the request goes through'
);
select results_eq(
  $$select outcome, new_full_path from lifecycle.namespace_transfer_execute(
      (select id from lifecycle.namespaces where path = 'team' and parent_id = lifecycle_test.id_of('acme/src')))$$,
  $$values ('completed'::text, 'acme/dst/team'::text)$$,
  'the move completes'
);
select is(
  (select count(*)::int from lifecycle.namespaces where parent_id = lifecycle_test.id_of('acme/dst') and path = 'team'),
  2,
  'the moved group and the scheduled project share the path below acme/dst'
);

select * from finish();
rollback;
