begin;
select plan(10);

-- docs/design.md §5: a path is a lowercase slug (lifecycle.path_refusal): a-z, 0-9 and _ - . inside, a
-- letter or digit at both ends, no '..', not ending in .git or .atom, at most 100 characters.
select lifecycle_test.create_namespace(null, 'organization', 'acme');

select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'Site')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'an uppercase letter is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', '-site')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'a leading dash is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site.')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'a trailing dot is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'my..site')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'two dots in a row are refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site.git')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'a .git suffix is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site.atom')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'an .atom suffix is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', %L)$$, lifecycle_test.id_of('acme'), repeat('a', 101)),
  'NS010', 'invalid path', 'a path of 101 characters is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', '')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'an empty path is refused'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'my site')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path', 'a space is refused'
);
select is(
  (select count(*) from lifecycle.namespaces where parent_id = lifecycle_test.id_of('acme')),
  0::bigint,
  'none of the refused paths created a namespace'
);

select * from finish();
rollback;
