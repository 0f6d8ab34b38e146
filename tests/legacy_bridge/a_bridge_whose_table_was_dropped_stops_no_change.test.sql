-- A broken bridge breaks only itself (docs/design.md §10.2): once its table is dropped it has no
-- row of any namespace, so every change goes through (none was refused with NS010 any more);
-- legacy_bridge_check, which cannot know what that table said, stops with NS010 naming the bridge
-- and legacy_bridge_drop, which ends it.
begin;
select plan(5);
select lifecycle_test.create_gitlab_legacy();
drop table legacy.projects;

set local role lifecycle_app;
select lives_ok(format($$select * from lifecycle.namespace_event(%s, 'archive', 1001)$$, lifecycle_test.id_of('acme/eng/site')),
                'lifecycle_app: archiving a project that had a row there goes through');
select lives_ok(format($$select * from lifecycle.namespace_event(%s, 'schedule_deletion', 1001)$$, lifecycle_test.id_of('acme/eng')),
                'scheduling the group''s deletion goes through, its own bridge writing its row');
reset role;
select is((select count(*)::int from legacy.group_deletion_schedules), 1, 'the sound bridge wrote its legacy row');
set local role lifecycle_worker;
select throws_like($$select * from lifecycle.legacy_bridge_check()$$,
                   'legacy bridge % (table % (gone), archived) is broken: its table is gone',
                   'lifecycle_worker: legacy_bridge_check names the broken bridge');
reset role;
select cmp_ok((select lifecycle.legacy_bridge_drop(b.source) from lifecycle.legacy_bridges b order by b.id desc limit 1), '=', 3,
              'legacy_bridge_drop ends the three bridges of the dropped table');

select * from finish();
rollback;
