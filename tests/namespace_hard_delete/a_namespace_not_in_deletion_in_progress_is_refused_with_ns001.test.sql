begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'live');
select lifecycle_test.create_in_state(lifecycle_test.id_of('acme/live'), 'site', 'active');
select lifecycle_test.create_in_state(lifecycle_test.id_of('acme'), 'old', 'archived');
select lifecycle_test.create_in_state(lifecycle_test.id_of('acme'), 'soon', 'deletion_scheduled');

select throws_ok(
  format('select * from lifecycle.namespace_hard_delete(%s, 10)', lifecycle_test.id_of('acme/live')),
  'NS001', 'cannot hard-delete a namespace that is ancestor_inherited',
  'an active group is refused'
);
select throws_ok(
  format('select * from lifecycle.namespace_hard_delete(%s, 10)', lifecycle_test.id_of('acme/old')),
  'NS001', 'cannot hard-delete a namespace that is archived',
  'an archived project is refused'
);
select throws_ok(
  format('select * from lifecycle.namespace_hard_delete(%s, 10)', lifecycle_test.id_of('acme/soon')),
  'NS001', 'cannot hard-delete a namespace that is deletion_scheduled',
  'a project scheduled for deletion but not yet started is refused'
);
select is((select count(*)::int from lifecycle.namespaces), 5, 'no row was removed');
select is((select count(*)::int from lifecycle.deleted_namespaces), 0, 'nothing was recorded as deleted');

select * from finish();
rollback;
