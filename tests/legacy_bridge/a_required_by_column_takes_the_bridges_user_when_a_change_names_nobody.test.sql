-- GitLab's group_deletion_schedules.user_id is NOT NULL (docs/design.md §10.2): a deletion the
-- system schedules (actor null) is written with the bridge's configured user, not a null that
-- fails with a raw 23502; a bridge without one refuses with its NS010, naming itself.
begin;
select plan(3);
select lifecycle_test.create_gitlab_tables();

select lifecycle.namespace_event(900002, 'schedule_deletion', null);
select results_eq($$select user_id, marked_for_deletion_on from legacy.group_deletion_schedules where group_id = 900002$$,
                  $$values (42::bigint, current_date)$$, 'the row names the bridge''s user');
select lifecycle.namespace_event(900002, 'restore', null);
update lifecycle.legacy_bridges set actor_id = null where source = 'legacy.group_deletion_schedules'::regclass;
select throws_ok($$select lifecycle.namespace_event(900002, 'schedule_deletion', null)$$, 'NS010', null,
                 'without a user to write, the bridge refuses with NS010');
select is((select lifecycle.state_name(state) from lifecycle.namespaces where id = 900002), 'ancestor_inherited', 'and nothing changed');

select * from finish();
rollback;
