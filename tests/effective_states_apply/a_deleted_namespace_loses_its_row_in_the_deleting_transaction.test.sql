begin;
select plan(5);

-- acme/doomed with 14 descendants and a sibling acme/keep; user 1001 owns acme (tests/helpers.sql).
select lifecycle_test.create_doomed_tree();
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/keep'), 'group', 'inner');
select lifecycle.effective_states_refresh();
create temp table root as select lifecycle_test.id_of('acme/doomed') as id;
-- acme/keep moves in under acme/doomed; its move's fact is not applied: the table still shows it
-- at its old path when the subtree is deleted.
select lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/keep'), (select id from pg_temp.root), 1001);
select lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/keep'));
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_in_progress', 1001);

-- One batch: the deepest rows go, and their rows with them, before any fact tells of it (the
-- hard_deleted fact comes with the last batch).
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 5);
select is(
  (select count(*) from lifecycle.effective_states e where not exists (select from lifecycle.namespaces n where n.id = e.namespace_id)),
  0::bigint,
  'after a batch, no row is left for a namespace it deleted'
);
-- A raw DELETE of a leaf below the deletion in progress (allowed) takes its row too.
delete from lifecycle.namespaces
 where id = (select n.id from lifecycle.namespaces n
              where n.traversal_ids[1:2] = array[lifecycle_test.id_of('acme'), (select id from pg_temp.root)]
                and not exists (select from lifecycle.namespaces c where c.parent_id = n.id)
              limit 1);
select is(
  (select count(*) from lifecycle.effective_states e where not exists (select from lifecycle.namespaces n where n.id = e.namespace_id)),
  0::bigint,
  'a raw DELETE takes the row of the namespace it deleted'
);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 100);
select results_eq($$select full_path from lifecycle.effective_states$$, $$values ('acme'::text)$$,
                  'after the last batch, the rows of the whole subtree are gone, the moved one''s included');
-- The freed path is live again at once, under another id.
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'doomed');
select is(lifecycle_test.apply(array[lifecycle_test.fact_of('namespace_created', lifecycle_test.id_of('acme/doomed'))]),
          1::bigint, 'a new namespace at a freed path gets its row from its creation''s fact');
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'the table equals its definition');

select * from finish();
rollback;
