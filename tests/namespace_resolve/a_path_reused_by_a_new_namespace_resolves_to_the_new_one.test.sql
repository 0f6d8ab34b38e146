begin;
select plan(3);

-- A live namespace at the path wins over a redirect: once a new namespace takes a renamed
-- namespace's old path, the path resolves to the new namespace, not through the redirect.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/eng'), 'engineering', null);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng')$$,
  format($$values (%s::bigint, 'acme/eng'::text, false)$$, lifecycle_test.id_of('acme/eng')),
  'acme/eng resolves to the new group, without a redirect'
);
select isnt(
  lifecycle_test.id_of('acme/eng'),
  lifecycle_test.id_of('acme/engineering'),
  'the new group is not the renamed one'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng/site')$$,
  format($$values (%s::bigint, 'acme/engineering/site'::text, true)$$, lifecycle_test.id_of('acme/engineering/site')),
  'a descendant path the new group does not have still follows the redirect of the renamed group'
);

select * from finish();
rollback;
