begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'soon');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/soon'), 'project', 'app');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/soon'), 'deletion_scheduled', null);

select throws_ok(
  format('delete from lifecycle.namespaces where id = %s', lifecycle_test.id_of('acme/eng/site')),
  'NS001', 'only a namespace being deleted (deletion_in_progress, or below one) can be removed',
  'a raw DELETE of an active leaf is refused'
);
select throws_ok(
  format('delete from lifecycle.namespaces where id = %s', lifecycle_test.id_of('acme/soon/app')),
  'NS001', 'only a namespace being deleted (deletion_in_progress, or below one) can be removed',
  'a raw DELETE of a leaf below a group only scheduled for deletion is refused'
);
select throws_ok(
  format('delete from lifecycle.namespaces where id = %s', lifecycle_test.id_of('acme/soon')),
  'NS001', 'only a namespace being deleted (deletion_in_progress, or below one) can be removed',
  'a raw DELETE of a namespace scheduled for deletion (not started) is refused'
);
select is((select count(*)::int from lifecycle.namespaces), 5, 'no row was removed');

select * from finish();
rollback;
