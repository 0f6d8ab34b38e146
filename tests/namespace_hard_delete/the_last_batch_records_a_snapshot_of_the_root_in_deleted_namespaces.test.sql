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
create temp table root_before as select * from lifecycle.namespaces where id = (select id from pg_temp.root);

select is(
  (select count(*)::int from lifecycle.deleted_namespaces), 0, 'nothing is recorded before the end'
);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select is(
  (select count(*)::int from lifecycle.deleted_namespaces), 0, 'nothing is recorded while descendants remain'
);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);

select results_eq(
  $$select namespace_id, full_path, type, parent_id, traversal_ids, deletion_scheduled_by, deletion_scheduled_at,
           descendant_count, deleted_at
      from lifecycle.deleted_namespaces$$,
  $$select id, 'acme/doomed'::text, 'group'::text, parent_id, traversal_ids, 1001::bigint, now(), 14::bigint, now()
      from pg_temp.root_before$$,
  'one snapshot: full path, type, parent, who scheduled the deletion and when, 14 descendants'
);

select * from finish();
rollback;
