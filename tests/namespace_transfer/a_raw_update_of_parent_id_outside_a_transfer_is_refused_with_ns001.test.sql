begin;
select plan(3);

-- The move cannot skip the transfer's rules: a raw UPDATE of parent_id is refused unless the
-- namespace is transfer_in_progress.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'old');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/src/old'), 'archived', null);

select throws_ok(
  format('update lifecycle.namespaces set parent_id = %s where id = %s',
         lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/src/team')),
  'NS001', 'a namespace moves only while transfer_in_progress, not ancestor_inherited',
  'a raw move of an active namespace is refused'
);
select throws_ok(
  format('update lifecycle.namespaces set parent_id = %s where id = %s',
         lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/src/old')),
  'NS001', 'a namespace moves only while transfer_in_progress, not archived',
  'a raw move of an archived namespace is refused'
);
select results_eq(
  $$select parent_id from lifecycle.namespaces where path in ('team', 'old') order by path$$,
  $$select lifecycle_test.id_of('acme/src') from generate_series(1, 2)$$,
  'neither moved'
);

select * from finish();
rollback;
