begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select throws_ok(
  format('insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, %L, %L, %L)',
         lifecycle_test.id_of('acme/site'), 'project', 'inner', 'inner'),
  'NS010',
  'a project cannot have children',
  'nothing is created below a project'
);
select throws_ok(
  format('insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, %L, %L, %L)',
         lifecycle_test.id_of('acme'), 'organization', 'sub', 'sub'),
  'NS010',
  'a namespace of type organization has no parent',
  'an organization has no parent'
);
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'team', 'x', 'x')$$,
  'NS010',
  'unknown namespace type ''team''',
  'an unknown type is NS010'
);
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (-1, 'group', 'orphan', 'orphan')$$,
  'NS004',
  'parent namespace not found',
  'a missing parent is NS004'
);

select * from finish();
rollback;
