begin;
select plan(5);

-- lifecycle.reserved_paths scope any: the product's own route segments ('raw', 'tree', 'blob', …)
-- are refused for roots and below a parent alike, on create and on rename.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select is(
  (select scope from lifecycle.reserved_paths where path = 'raw'),
  'any',
  'raw is reserved everywhere'
);
select throws_ok(
  $$select lifecycle_test.create_namespace(null, 'organization', 'raw')$$,
  'NS010', 'invalid path',
  'a root may not be called raw'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'group', 'tree')$$, lifecycle_test.id_of('acme')),
  'NS010', 'invalid path',
  'a group below an organization may not be called tree'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'blob')$$, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid path',
  'a project below a group may not be called blob'
);
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'deleted', null)$$, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid path',
  'a group may not be renamed to deleted'
);

select * from finish();
rollback;
