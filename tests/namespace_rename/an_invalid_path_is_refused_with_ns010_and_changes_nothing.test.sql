begin;
select plan(4);

-- A rename to a path that is not a lowercase slug is refused with NS010 (the paths trigger), and
-- the failed call changes nothing: neither the path nor the redirects.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'Web', null)$$, lifecycle_test.id_of('acme/site')),
  'NS010', 'invalid path',
  'renaming to an uppercase path is refused'
);
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'web.git', null)$$, lifecycle_test.id_of('acme/site')),
  'NS010', 'invalid path',
  'renaming to a path ending in .git is refused'
);
select is(
  (select path from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  'site',
  'the path is unchanged'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  0::bigint,
  'no redirect was written'
);

select * from finish();
rollback;
