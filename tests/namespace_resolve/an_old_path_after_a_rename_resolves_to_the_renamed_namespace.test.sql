begin;
select plan(2);

-- After a rename, the old full path resolves to the same namespace at its new path, redirected.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/site'), 'web', null);

select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/site')$$,
  format($$values (%s::bigint, 'acme/web'::text, true)$$, lifecycle_test.id_of('acme/web')),
  'acme/site resolves to the renamed project at acme/web, redirected'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/web')$$,
  format($$values (%s::bigint, 'acme/web'::text, false)$$, lifecycle_test.id_of('acme/web')),
  'its new path resolves without a redirect'
);

select * from finish();
rollback;
