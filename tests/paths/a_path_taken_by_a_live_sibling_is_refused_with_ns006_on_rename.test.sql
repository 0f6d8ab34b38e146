begin;
select plan(4);

-- Uniqueness among live siblings holds on rename too: NS006, and the namespace keeps its path.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
select lifecycle_test.create_namespace(null, 'organization', 'beta');

select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'site', null)$$, lifecycle_test.id_of('acme/shop')),
  'NS006', 'path acme/site is taken',
  'renaming acme/shop to site, which its sibling has, is refused'
);
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'acme', null)$$, lifecycle_test.id_of('beta')),
  'NS006', 'path acme is taken',
  'renaming the root beta to acme, which another root has, is refused'
);
select is(
  lifecycle.namespace_full_path(lifecycle_test.id_of('acme/shop')),
  'acme/shop',
  'the refused rename left acme/shop as it was'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  0::bigint,
  'the refused renames wrote no redirect'
);

select * from finish();
rollback;
