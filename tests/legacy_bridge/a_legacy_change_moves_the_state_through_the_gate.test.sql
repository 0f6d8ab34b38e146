-- Legacy → state (docs/design.md §10): the application's old code writes a legacy column, and in
-- the same transaction the namespace moves to the bridged state (or back with the matching
-- event), with the actor from by_column and the time from at_column; one history row per change.
-- (Run as a superuser, who may act as the system where a bridge names no actor; the deletion
-- schedule is today's, so its owner may still restore it.)
begin;
select plan(6);
select lifecycle_test.create_gitlab_legacy();

update legacy.projects set archived = true where id = 502;
select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/docs')), 1,
          'setting projects.archived archives the project');
update legacy.projects set marked_for_deletion_at = '2024-01-02 03:04:05+00', marked_for_deletion_by_user_id = 1001 where id = 501;
select results_eq(
  format($$select state::int, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (2, '2024-01-02 03:04:05+00'::timestamptz, 1001::bigint)$$,
  'setting marked_for_deletion_at schedules the deletion, with the legacy time and actor');
select results_eq(
  format($$select event, from_state::int, to_state::int, actor_id, created_at from lifecycle.namespace_state_updates
            where namespace_id = %s order by id$$, lifecycle_test.id_of('acme/eng/site')),
  $$values (null::text, 0, 2, 1001::bigint, '2024-01-02 03:04:05+00'::timestamptz)$$,
  'one history row, at the legacy time, attributed to the legacy actor');
update legacy.projects set archived = false where id = 502;
select results_eq(
  format($$select state::int, (select event from lifecycle.namespace_state_updates u where u.namespace_id = n.id order by u.id desc limit 1)
            from lifecycle.namespaces n where id = %s$$, lifecycle_test.id_of('acme/eng/docs')),
  $$values (0, 'unarchive'::text)$$, 'clearing the flag unarchives it with the matching event');
insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id) values (lifecycle_test.id_of('acme/eng'), current_date, 1001);
delete from legacy.group_deletion_schedules where group_id = lifecycle_test.id_of('acme/eng');
select results_eq(
  format($$select from_state::int, to_state::int, event from lifecycle.namespace_state_updates where namespace_id = %s order by id$$,
         lifecycle_test.id_of('acme/eng')),
  $$values (0, 2, null::text), (2, 0, 'restore')$$,
  'a group_deletion_schedules row schedules the group; deleting it restores it');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
