begin;
select plan(3);

-- Renamed a → b → c: both a and b resolve to the namespace at c.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'a');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/a'), 'b', null);
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/b'), 'c', null);

select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/a')$$,
  format($$values (%s::bigint, 'acme/c'::text, true)$$, lifecycle_test.id_of('acme/c')),
  'the first path acme/a resolves to acme/c'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/b')$$,
  format($$values (%s::bigint, 'acme/c'::text, true)$$, lifecycle_test.id_of('acme/c')),
  'the intermediate path acme/b resolves to acme/c'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/c')$$,
  format($$values (%s::bigint, 'acme/c'::text, false)$$, lifecycle_test.id_of('acme/c')),
  'the current path resolves without a redirect'
);

select * from finish();
rollback;
