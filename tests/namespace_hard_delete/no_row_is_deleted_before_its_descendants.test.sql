begin;
select plan(9);

-- acme/doomed with 14 descendants and a sibling acme/keep; user 1001 owns acme (tests/helpers.sql).
select lifecycle_test.create_doomed_tree();
create temp table subtree as
  select id, traversal_ids from lifecycle.namespaces
   where traversal_ids[1:2] = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/doomed')];
create temp table root as select lifecycle_test.id_of('acme/doomed') as id;
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_in_progress', 1001);

-- Removed so far: the subtree's rows no longer there. A batch of 4 takes the next 4 rows in
-- descending traversal_ids order (a namespace's descendants sort after it), so after batch k the
-- removed rows are the last 4k of the subtree in that order, and no remaining row lost a parent.
create temp view removed as
  select s.id, s.traversal_ids from pg_temp.subtree s where not exists (select from lifecycle.namespaces n where n.id = s.id);
create temp view expected as
  select s.id from pg_temp.subtree s where s.id <> (select id from pg_temp.root) order by s.traversal_ids desc;

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select set_eq($$select id from pg_temp.removed$$, $$select id from pg_temp.expected limit 4$$,
              'batch 1 removed the last 4 rows of the subtree in traversal order');
select is(
  (select count(*)::int from lifecycle.namespaces c
    where c.parent_id is not null and not exists (select from lifecycle.namespaces p where p.id = c.parent_id)),
  0,
  'after batch 1 every remaining row''s parent exists'
);
select is(
  (select state_metadata #> '{progress,below}' from lifecycle.namespace_details where namespace_id = (select id from pg_temp.root)),
  (select pg_catalog.to_jsonb(min(traversal_ids)) from pg_temp.removed),
  'the next batch starts below the last row removed'
);

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select set_eq($$select id from pg_temp.removed$$, $$select id from pg_temp.expected limit 8$$,
              'batch 2 removed the next 4');
select is(
  (select count(*)::int from pg_temp.removed r join pg_temp.subtree d
      on d.traversal_ids > r.traversal_ids and d.traversal_ids[1:pg_catalog.cardinality(r.traversal_ids)] = r.traversal_ids
    where exists (select from lifecycle.namespaces n where n.id = d.id)),
  0,
  'no removed row has a descendant left'
);

-- A row behind the cursor (the rules let none appear; a cursor moved by hand stands for one): the
-- walk reaches the end of what it can see, finds the subtree not empty, and starts over.
update lifecycle.namespace_details
   set state_metadata = jsonb_set(state_metadata, '{progress,below}',
                                  (select to_jsonb(min(traversal_ids)) from pg_temp.subtree where id <> (select id from pg_temp.root)))
 where namespace_id = (select id from pg_temp.root);
select results_eq(
  $$select deleted, done from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  $$values (0::bigint, false)$$,
  'a batch that finds nothing below its cursor while rows remain is not done'
);
select is(
  (select state_metadata #> '{progress,below}' from lifecycle.namespace_details where namespace_id = (select id from pg_temp.root)),
  (select to_jsonb(traversal_ids[1:1] || (traversal_ids[2] + 1)) from lifecycle.namespaces where id = (select id from pg_temp.root)),
  'and starts the walk over from the top of the subtree'
);

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select is(
  (select count(*)::int from pg_temp.subtree s join lifecycle.namespaces n on n.id = s.id),
  0,
  'the walk over removed the rest, the root last'
);
select is((select descendant_count from lifecycle.deleted_namespaces where namespace_id = (select id from pg_temp.root)), 14::bigint,
          'the snapshot counts the 14 descendants');

select * from finish();
rollback;
