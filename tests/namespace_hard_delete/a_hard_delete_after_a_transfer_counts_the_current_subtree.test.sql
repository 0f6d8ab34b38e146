begin;
select plan(4);

-- A transfer leaves progress {done, total} in the namespace's state_metadata (here 2 of 2: the
-- group and one project). The subtree then grows to 6 descendants and is hard-deleted: its
-- progress and the snapshot's descendant_count must count what is deleted now, not the old move.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 3003, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 3003);
select * from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'));
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/dst/team'), 'project', p)
  from unnest(array['a', 'b', 'c', 'd', 'e']) p;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/dst/team'), 'deletion_scheduled', 3003);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/dst/team'), 'deletion_in_progress', 3003);
create temp table root as select lifecycle_test.id_of('acme/dst/team') as id;

-- The calls are collected through lives_ok, so an error is reported as a failed test, not an abort.
create temp table calls (deleted bigint, remaining bigint, done boolean);

select lives_ok(
  $$insert into pg_temp.calls select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  'the first batch goes through'
);
select is(
  (select (state_metadata -> 'progress') - 'below' from lifecycle.namespace_details where namespace_id = (select id from pg_temp.root)),
  '{"done": 4, "total": 6}'::jsonb,
  'progress counts the 6 descendants there are now'
);
select lives_ok(
  $$insert into pg_temp.calls select * from lifecycle.namespace_hard_delete((select id from pg_temp.root), 4)$$,
  'the second batch goes through'
);
select results_eq(
  $$select (select array_agg(row(deleted, remaining, done)::text) from pg_temp.calls),
           (select descendant_count from lifecycle.deleted_namespaces)$$,
  $$values (array['(4,2,f)', '(3,0,t)'], 6::bigint)$$,
  'two batches: 4 then the last 2 and the root; the snapshot records 6 descendants'
);

select * from finish();
rollback;
