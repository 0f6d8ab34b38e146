begin;
select plan(3);

-- namespace_resolve(full_path) returns (namespace_id, canonical_path, redirected) for the live
-- namespace at the path; redirected is false when no redirect was followed.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');

select results_eq(
  $$select * from lifecycle.namespace_resolve('acme')$$,
  format($$values (%s::bigint, 'acme'::text, false)$$, lifecycle_test.id_of('acme')),
  'a root resolves to itself'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng/site')$$,
  format($$values (%s::bigint, 'acme/eng/site'::text, false)$$, lifecycle_test.id_of('acme/eng/site')),
  'a project three levels deep resolves to itself'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng')$$,
  format($$values (%s::bigint, 'acme/eng'::text, false)$$, lifecycle_test.id_of('acme/eng')),
  'a group resolves to itself'
);

select * from finish();
rollback;
