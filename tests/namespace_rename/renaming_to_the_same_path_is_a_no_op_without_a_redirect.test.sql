begin;
select plan(3);

-- A rename to the path the namespace already has succeeds with changed = false and records nothing.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select results_eq(
  format($$select * from lifecycle.namespace_rename(%s, 'site', null)$$, lifecycle_test.id_of('acme/site')),
  format($$values (%s::bigint, 'acme/site'::text, 'acme/site'::text, false)$$, lifecycle_test.id_of('acme/site')),
  'renaming acme/site to site returns changed = false with the same old and new full path'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  0::bigint,
  'the no-op wrote no redirect'
);
select is(
  (select path from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  'site',
  'the path is unchanged'
);

select * from finish();
rollback;
