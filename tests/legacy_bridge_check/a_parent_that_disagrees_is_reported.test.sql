-- legacy_bridge_check reports a namespace whose legacy parent is not its lifecycle parent (a
-- project moved behind the tree bridges' back, triggers off, as a superuser could): its projects
-- row names another namespace, its namespaces row still the old one.
begin;
select plan(1);
select lifecycle_test.create_gitlab_tables();

set local session_replication_role = replica;
update legacy.projects set namespace_id = 900001 where id = 9100;
set local session_replication_role = origin;
select results_eq($$select namespace_id, source, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  $$values (900010::bigint, 'legacy.projects'::regclass, 'parent 900001'::text, 'parent 900002'::text)$$,
                  'the table whose row names another parent, and both parents');

select * from finish();
rollback;
