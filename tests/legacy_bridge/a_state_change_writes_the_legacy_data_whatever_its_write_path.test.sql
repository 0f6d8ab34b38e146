-- State → legacy (docs/design.md §10): every state change of a bridged namespace, through the API,
-- a raw UPDATE or a worker's function, sets or clears the legacy columns and inserts or deletes
-- the existence rows, in the same transaction; an archived project scheduled for deletion keeps
-- its legacy archived flag, as GitLab does.
begin;
select plan(6);
select lifecycle_test.create_gitlab_legacy();

select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/site'), 'archive', 1001);
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/site'), 'schedule_deletion', 1001);
select results_eq($$select archived, marked_for_deletion_by_user_id, marked_for_deletion_at is not null from legacy.projects where id = 501$$,
                  $$values (true, 1001::bigint, true)$$,
                  'API: archived, then scheduled: both legacy columns say so, with the actor');
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/site'), 'restore', 1001);
select results_eq($$select archived, marked_for_deletion_at, marked_for_deletion_by_user_id from legacy.projects where id = 501$$,
                  $$values (true, null::timestamptz, null::bigint)$$,
                  'API: a restore to archived clears the deletion and keeps the flag');
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng'), 'schedule_deletion', 1001);
select results_eq(format($$select user_id from legacy.group_deletion_schedules where group_id = %s$$, lifecycle_test.id_of('acme/eng')),
                  $$values (1001::bigint)$$, 'API: a group''s scheduled deletion inserts its row');
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('acme/eng');
select is_empty(format($$select * from legacy.group_deletion_schedules where group_id = %s$$, lifecycle_test.id_of('acme/eng')),
                'raw UPDATE: back to active deletes the row');
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/docs'), 'schedule_deletion', 1001);
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/docs'), 'deletion_start', 1001);
select * from lifecycle.sweep_deletion_failed(lifecycle_test.id_of('acme/eng/docs'), 'disk full', 5);
select results_eq($$select pending_delete, marked_for_deletion_at is not null from legacy.projects where id = 502$$,
                  $$values (false, true)$$,
                  'worker: a failed hard delete clears pending_delete and keeps the project marked for deletion');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'legacy data and states agree');

select * from finish();
rollback;
