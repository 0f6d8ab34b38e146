begin;
select plan(3);

-- acme/doomed with 14 descendants and a sibling acme/keep; user 1001 owns acme (tests/helpers.sql).
select lifecycle_test.create_doomed_tree();
create temp table subtree as
  select id, pg_catalog.cardinality(traversal_ids) - 2 as depth from lifecycle.namespaces
   where traversal_ids[1:2] = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/doomed')];
create temp table root as select lifecycle_test.id_of('acme/doomed') as id;
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_in_progress', 1001);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 100);

select results_eq(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  $$values (0::bigint, 0::bigint, true)$$,
  'a call for a namespace already hard-deleted returns done with 0 deleted'
);
select is((select count(*)::int from lifecycle.deleted_namespaces), 1, 'the snapshot is not written twice');
select results_eq(
  $$select lifecycle.namespace_full_path(id) from lifecycle.namespaces order by id$$,
  $$values ('acme'::text), ('acme/keep'), ('acme/keep/site')$$,
  'nothing else was touched'
);

select * from finish();
rollback;
