begin;
select plan(4);

-- Paths are compared lowercased, and slashes around the full path are ignored; the canonical path
-- returned is the stored one.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select results_eq(
  $$select * from lifecycle.namespace_resolve('ACME/Site')$$,
  format($$values (%s::bigint, 'acme/site'::text, false)$$, lifecycle_test.id_of('acme/site')),
  'ACME/Site resolves to acme/site'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('/acme/site/')$$,
  format($$values (%s::bigint, 'acme/site'::text, false)$$, lifecycle_test.id_of('acme/site')),
  '/acme/site/ resolves to acme/site'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('//Acme/SITE//')$$,
  format($$values (%s::bigint, 'acme/site'::text, false)$$, lifecycle_test.id_of('acme/site')),
  'several slashes around a mixed-case path are ignored as well'
);
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/site'), 'web', null);
select results_eq(
  $$select * from lifecycle.namespace_resolve('/Acme/Site')$$,
  format($$values (%s::bigint, 'acme/web'::text, true)$$, lifecycle_test.id_of('acme/web')),
  'an old path in another case follows the redirect too'
);

select * from finish();
rollback;
