-- At cutover (docs/design.md §10.3), dropping a table's tree bridge removes its trigger, and the
-- namespaces' write-back trigger with the last tree bridge: legacy writes no longer change the
-- tree, and the tree's changes no longer write the legacy rows. A table without one drops none.
begin;
select plan(8);
select lifecycle_test.create_gitlab_tables();

select is(lifecycle.legacy_tree_bridge_drop('legacy.projects'), 1, 'the tree bridge of legacy.projects goes');
select is_empty($$select from pg_trigger where tgrelid = 'legacy.projects'::regclass and tgname = 'lifecycle_0_legacy_tree'$$,
                'and its trigger');
select isnt_empty($$select from pg_trigger where tgrelid = 'lifecycle.namespaces'::regclass and tgname = 'namespaces_6_legacy_tree'$$,
                  'the namespaces'' trigger stays while a tree bridge is left');
select is(lifecycle.legacy_tree_bridge_drop('legacy.projects'), 0, 'a table without one drops none');
select is(lifecycle.legacy_tree_bridge_drop('legacy.namespaces'), 1, 'the last tree bridge goes');
select is_empty($$select from pg_trigger where tgname in ('lifecycle_0_legacy_tree', 'namespaces_6_legacy_tree')$$,
                'no tree bridge trigger is left');

insert into legacy.namespaces (id, name, path, type, visibility_level, organization_id) values (900040, 'Bob', 'bob', 'User', 20, 1);
select is((select count(*) from lifecycle.namespaces where id = 900040), 0::bigint, 'a legacy insert no longer creates a namespace');
select lifecycle.namespace_rename(900002, 'platform-2', 42);
select is((select path from legacy.namespaces where id = 900002), 'platform', 'a rename no longer writes the legacy row');

select * from finish();
rollback;
