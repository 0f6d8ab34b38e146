begin;
select plan(2);

-- Only a live namespace holds its path among its siblings: a group scheduled for deletion and the
-- group made later on its path (allowed: the path was free) move in together.
-- One database plays both clusters, so this transaction takes the effective states' lock row FOR
-- KEY SHARE (the move out's DELETE) and then FOR UPDATE (the move in): taken FOR UPDATE first, so
-- that two such tests running at once wait for one another instead of deadlocking.
select 1 from lifecycle.lock_rows where name = 'effective_states' for update;
select lifecycle_test.create_movable_organization('shared');
select lifecycle_test.create_namespace(lifecycle_test.id_of('shared'), 'group', 'old');
create temporary table org on commit drop as select lifecycle_test.id_of('shared') as id;
select lifecycle.organization_move_out_start('shared', 'cluster-b');
create temporary table exported on commit drop as select e.* from org, lifecycle.organization_export(org.id) e;
select lifecycle.organization_move_out_finish(org.id) from org;

insert into lifecycle.organization_imports select (select id from pg_temp.org), e.kind, e.data from pg_temp.exported e;
select lives_ok('select * from lifecycle.organization_move_in(' || (select id from org) || ', ''cluster-a'')',
                'the organization moves in');
select results_eq($$select lifecycle.state_name(n.state) from lifecycle.namespaces n, org
                     where n.parent_id = org.id and n.path = 'old' order by n.id$$,
                  $$values ('deletion_scheduled'::text), ('ancestor_inherited')$$,
                  'both groups on path old are there, the one pending deletion and the live one');

select * from finish();
rollback;
