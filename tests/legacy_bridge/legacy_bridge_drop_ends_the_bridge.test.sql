-- At cutover (docs/design.md §10), dropping a table's bridges removes its trigger (and the
-- namespaces' with the last bridge): legacy writes no longer move states, and state changes no
-- longer write the legacy data.
begin;
select plan(6);
select lifecycle_test.create_gitlab_legacy();

select is(lifecycle.legacy_bridge_drop('legacy.projects'), 3, 'the three bridges of legacy.projects go');
update legacy.projects set archived = true where id = 501;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')), 0,
          'a legacy write no longer moves the state');
select is(lifecycle.legacy_bridge_drop('legacy.namespace_settings') + lifecycle.legacy_bridge_drop('legacy.group_deletion_schedules'), 2,
          'the others go');
select is_empty($$select from pg_trigger where tgname in ('lifecycle_legacy_bridge', 'lifecycle_legacy_bridge_update', 'namespaces_5_legacy_bridge')$$,
                'no bridge trigger is left');
select is_empty($$select from pg_proc where proname like 'legacy\_bridge\_moved\_%'$$, 'nor the WHEN function of an update trigger');
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng'), 'schedule_deletion', 1001);
select is_empty($$select * from legacy.group_deletion_schedules$$, 'a state change no longer writes the legacy data');

select * from finish();
rollback;
