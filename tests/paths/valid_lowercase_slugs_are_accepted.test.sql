begin;
select plan(6);

-- The other side of the slug rules: letters, digits, '_', '-' and '.' inside, a single character,
-- and exactly 100 characters are all valid paths.
select lifecycle_test.create_namespace(null, 'organization', 'acme');

select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'a')$$, lifecycle_test.id_of('acme')),
  'a single letter is a valid path'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', '7')$$, lifecycle_test.id_of('acme')),
  'a single digit is a valid path'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'my_site-v2.0')$$, lifecycle_test.id_of('acme')),
  'underscore, dash and dot inside are valid'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site.gitlab')$$, lifecycle_test.id_of('acme')),
  '.git inside a path (not as its suffix) is valid'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', %L)$$, lifecycle_test.id_of('acme'), repeat('a', 100)),
  'a path of exactly 100 characters is valid'
);
select is(
  (select count(*) from lifecycle.namespaces where parent_id = lifecycle_test.id_of('acme')),
  5::bigint,
  'every valid path created a namespace'
);

select * from finish();
rollback;
