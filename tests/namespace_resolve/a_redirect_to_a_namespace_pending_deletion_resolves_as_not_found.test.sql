begin;
select plan(4);

-- docs/design.md §5: a redirect to a namespace pending deletion resolves as not found (no row), and so
-- does the namespace's own path.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/site'), 'web', null);
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/shop'), 'store', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/web'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/store'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/store'), 'deletion_in_progress', null);

select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/site')$$,
  'the old path of a project scheduled for deletion resolves to nothing'
);
select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/web')$$,
  'nor does its current path'
);
select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/shop')$$,
  'the old path of a project being deleted resolves to nothing'
);
select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/store')$$,
  'nor does its current path'
);

select * from finish();
rollback;
