-- lifecycle.legacy_bridge_check returns one row per disagreement, and none when all agree (here
-- legacy data is written behind the bridge's back, triggers off, as a superuser could).
begin;
select plan(3);
select lifecycle_test.create_gitlab_legacy();
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/eng/docs'), 'archive', 1001);
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'in step after changes on both sides');

set local session_replication_role = replica;
update legacy.projects set archived = false where id = 502;
update legacy.projects set marked_for_deletion_at = now() where id = 501;
insert into legacy.group_deletion_schedules values (lifecycle_test.id_of('acme'), current_date, 1001);
set local session_replication_role = origin;

select results_eq(
  $$select namespace_id, source::text, legacy_says, state from lifecycle.legacy_bridge_check()$$,
  format($$values (%s::bigint, 'legacy.group_deletion_schedules'::text, 'deletion_scheduled'::text, 'ancestor_inherited'::text),
                  (%s, 'legacy.projects', 'deletion_scheduled', 'ancestor_inherited'),
                  (%s, 'legacy.projects', 'not archived', 'archived')$$,
         lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/eng/site'), lifecycle_test.id_of('acme/eng/docs')),
  'each disagreement: the namespace, the table, what the legacy data says, the state');
select is((select count(*)::int from lifecycle.namespace_state_updates), 1, 'checking changes nothing');

select * from finish();
rollback;
