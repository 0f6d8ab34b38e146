begin;
select plan(7);

-- acme/doomed with 14 descendants and a sibling acme/keep; user 1001 owns acme (tests/helpers.sql).
select lifecycle_test.create_doomed_tree();
create temp table subtree as
  select id, pg_catalog.cardinality(traversal_ids) - 2 as depth from lifecycle.namespaces
   where traversal_ids[1:2] = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/doomed')];
create temp table root as select lifecycle_test.id_of('acme/doomed') as id;
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_in_progress', 1001);

-- After each batch: how many rows of each depth are left (0 = the root), and no row lost its parent.
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select results_eq(
  $$select s.depth, count(*)::int from pg_temp.subtree s join lifecycle.namespaces n on n.id = s.id group by 1 order by 1$$,
  $$values (0, 1), (1, 4), (2, 6)$$,
  'batch 1 removed only rows of the deepest level'
);
select is(
  (select count(*)::int from lifecycle.namespaces c
    where c.parent_id is not null and not exists (select from lifecycle.namespaces p where p.id = c.parent_id)),
  0,
  'after batch 1 every remaining row''s parent exists'
);

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select results_eq(
  $$select s.depth, count(*)::int from pg_temp.subtree s join lifecycle.namespaces n on n.id = s.id group by 1 order by 1$$,
  $$values (0, 1), (1, 4), (2, 2)$$,
  'batch 2 removed only rows of the deepest level, even though p0 (level 1) has no children'
);
select is(
  (select count(*)::int from lifecycle.namespaces c
    where c.parent_id is not null and not exists (select from lifecycle.namespaces p where p.id = c.parent_id)),
  0,
  'after batch 2 every remaining row''s parent exists'
);

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select results_eq(
  $$select s.depth, count(*)::int from pg_temp.subtree s join lifecycle.namespaces n on n.id = s.id group by 1 order by 1$$,
  $$values (0, 1), (1, 2)$$,
  'batch 3 finished the deepest level before starting on level 1'
);
select is(
  (select count(*)::int from pg_temp.subtree g join pg_temp.subtree r on r.depth > g.depth
    where not exists (select from lifecycle.namespaces n where n.id = g.id)
      and exists (select from lifecycle.namespaces n where n.id = r.id)),
  0,
  'no remaining row is deeper than a removed one'
);

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select is(
  (select count(*)::int from pg_temp.subtree s join lifecycle.namespaces n on n.id = s.id),
  0,
  'the last call removed the rest, the root last'
);

select * from finish();
rollback;
