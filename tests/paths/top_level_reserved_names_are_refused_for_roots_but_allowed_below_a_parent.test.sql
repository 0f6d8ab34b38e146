begin;
select plan(5);

-- lifecycle.reserved_paths scope top_level: the host application's routes ('admin', 'api', …)
-- may not be the path of a root (it would shadow the route), but are fine below a parent.
select lifecycle_test.create_namespace(null, 'organization', 'acme');

select is(
  (select scope from lifecycle.reserved_paths where path = 'admin'),
  'top_level',
  'admin is reserved at the top level'
);
select throws_ok(
  $$select lifecycle_test.create_namespace(null, 'organization', 'admin')$$,
  'NS010', 'invalid path',
  'an organization may not be called admin'
);
select throws_ok(
  $$select lifecycle_test.create_namespace(null, 'user', 'api')$$,
  'NS010', 'invalid path',
  'a user namespace may not be called api'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'group', 'admin')$$, lifecycle_test.id_of('acme')),
  'a group below an organization may be called admin'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'api')$$, lifecycle_test.id_of('acme/admin')),
  'a project below a group may be called api'
);

select * from finish();
rollback;
