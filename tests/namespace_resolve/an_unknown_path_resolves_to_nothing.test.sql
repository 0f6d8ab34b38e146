begin;
select plan(5);

-- No live namespace and no redirect: no row.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select is_empty($$select * from lifecycle.namespace_resolve('nobody')$$, 'an unknown root resolves to nothing');
select is_empty($$select * from lifecycle.namespace_resolve('acme/nothing')$$, 'an unknown child of a live root resolves to nothing');
select is_empty($$select * from lifecycle.namespace_resolve('acme/site/deeper')$$, 'a path below a project resolves to nothing');
select is_empty($$select * from lifecycle.namespace_resolve('')$$, 'an empty path resolves to nothing');
select is_empty($$select * from lifecycle.namespace_resolve('/')$$, 'a lone slash resolves to nothing');

select * from finish();
rollback;
