begin;
select plan(9);

-- acme/doomed with 14 descendants and a sibling acme/keep; user 1001 owns acme (tests/helpers.sql).
select lifecycle_test.create_doomed_tree();
create temp table subtree as
  select id, pg_catalog.cardinality(traversal_ids) - 2 as depth from lifecycle.namespaces
   where traversal_ids[1:2] = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/doomed')];
create temp table root as select lifecycle_test.id_of('acme/doomed') as id;
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_in_progress', 1001);

select is((select count(*)::int from pg_temp.subtree), 15, 'the subtree holds 15 namespaces');

select results_eq(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  $$values (4::bigint, 10::bigint, false)$$,
  'batch 1 deletes 4, 10 remain'
);
select is(
  (select (state_metadata -> 'progress') - 'below' from lifecycle.namespace_details where namespace_id = (select id from pg_temp.root)),
  '{"done": 4, "total": 14}'::jsonb,
  'progress after batch 1 is in the root''s state_metadata'
);
select results_eq(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  $$values (4::bigint, 6::bigint, false)$$,
  'batch 2 deletes 4, 6 remain'
);
select is(
  (select (state_metadata -> 'progress') - 'below' from lifecycle.namespace_details where namespace_id = (select id from pg_temp.root)),
  '{"done": 8, "total": 14}'::jsonb,
  'progress after batch 2'
);
select results_eq(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  $$values (4::bigint, 2::bigint, false)$$,
  'batch 3 deletes 4, 2 remain'
);
select is(
  (select (state_metadata -> 'progress') - 'below' from lifecycle.namespace_details where namespace_id = (select id from pg_temp.root)),
  '{"done": 12, "total": 14}'::jsonb,
  'progress after batch 3'
);
select results_eq(
  $$select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  $$values (3::bigint, 0::bigint, true)$$,
  'the last call deletes the last 2 descendants and the root, and is done'
);
select results_eq(
  $$select lifecycle.namespace_full_path(id) from lifecycle.namespaces order by id$$,
  $$values ('acme'::text), ('acme/keep'), ('acme/keep/site')$$,
  'the whole subtree is gone; the sibling and its child remain'
);

select * from finish();
rollback;
