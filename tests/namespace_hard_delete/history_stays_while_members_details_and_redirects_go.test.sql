begin;
select plan(5);

-- acme/doomed with 14 descendants and a sibling acme/keep; user 1001 owns acme (tests/helpers.sql).
select lifecycle_test.create_doomed_tree();
create temp table subtree as
  select id, pg_catalog.cardinality(traversal_ids) - 2 as depth from lifecycle.namespaces
   where traversal_ids[1:2] = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/doomed')];
create temp table root as select lifecycle_test.id_of('acme/doomed') as id;
-- Memberships and redirects inside and outside the subtree.
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  ((select id from pg_temp.root), 1002, 50),
  (lifecycle_test.id_of('acme/doomed/g1'), 1003, 40),
  (lifecycle_test.id_of('acme/doomed/g2/a'), 1004, 30),
  (lifecycle_test.id_of('acme/keep'), 1005, 30);
select * from lifecycle.namespace_rename(lifecycle_test.id_of('acme/doomed/g3/c'), 'cc', null);
select * from lifecycle.namespace_rename(lifecycle_test.id_of('acme/keep/site'), 'www', null);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition((select id from pg_temp.root), 'deletion_in_progress', 1001);

select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);
select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4);

select results_eq(
  $$select from_state::int, to_state::int, actor_id from lifecycle.namespace_state_updates
     where namespace_id = (select id from pg_temp.root) order by id$$,
  $$values (0, 2, 1001::bigint), (2, 4, 1001::bigint)$$,
  'the root''s history rows remain'
);
select is(
  (select count(*)::int from lifecycle.namespace_members where namespace_id in (select id from pg_temp.subtree)),
  0,
  'no membership of a deleted namespace remains'
);
select is(
  (select count(*)::int from lifecycle.namespace_details where namespace_id in (select id from pg_temp.subtree)),
  0,
  'no details row of a deleted namespace remains'
);
select results_eq(
  $$select old_full_path from lifecycle.namespace_redirects order by id$$,
  $$values ('acme/keep/site'::text)$$,
  'the redirect of a deleted namespace went with it; the survivor''s stays'
);
select results_eq(
  $$select user_id from lifecycle.namespace_members order by user_id$$,
  $$values (1001::bigint), (1005::bigint)$$,
  'memberships outside the subtree remain'
);

select * from finish();
rollback;
