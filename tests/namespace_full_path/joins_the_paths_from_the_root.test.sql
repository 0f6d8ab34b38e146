begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');

select is(lifecycle.namespace_full_path(lifecycle_test.id_of('acme')), 'acme', 'a root''s full path is its path');
select is(
  lifecycle.namespace_full_path((select id from lifecycle.namespaces where path = 'site' and parent_id = lifecycle_test.id_of('acme/eng'))),
  'acme/eng/site',
  'a project''s full path joins every level from the root'
);
select is(lifecycle.namespace_full_path(-1), null, 'a missing namespace has no full path');

select * from finish();
rollback;
