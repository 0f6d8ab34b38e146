-- legacy_bridge_check reports a namespace still live in the lifecycle whose legacy row is gone: a
-- user's namespaces row, a project's projects and namespaces rows, deleted behind the tree bridges'
-- back (triggers off, as a superuser could): each table that should hold a row says "no row",
-- against the namespace's state.
begin;
select plan(2);
select lifecycle_test.create_gitlab_tables();
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'in step');

set local session_replication_role = replica;
delete from legacy.projects where id = 9100;
delete from legacy.namespaces where id in (900005, 900010);
set local session_replication_role = origin;
-- As the operator who checks: a member of lifecycle_worker, with usage on the legacy schema (docs/adoption.md, step 1).
grant usage on schema legacy to lifecycle_worker;
set local role lifecycle_worker;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900005::bigint, 'legacy.namespaces'::regclass, 'no row'::text, 'ancestor_inherited'::text),
                           (900010, 'legacy.namespaces', 'no row', 'ancestor_inherited'),
                           (900010, 'legacy.projects', 'no row', 'ancestor_inherited')$$,
                  'the user and the project: each table that should hold a row says there is none');
reset role;

select * from finish();
rollback;
