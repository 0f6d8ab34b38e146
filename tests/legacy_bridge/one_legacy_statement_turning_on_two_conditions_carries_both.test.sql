-- One legacy statement may turn on several bridged conditions of a namespace at once; each is
-- carried over, in the order of the states (archived, then the deletion, then its run), and the
-- legacy row keeps what the statement wrote (the state's write-back waits until all are carried).
begin;
select plan(5);
select lifecycle_test.create_gitlab_legacy();

update legacy.projects set archived = true, marked_for_deletion_at = '2024-01-02 03:04:05+00', marked_for_deletion_by_user_id = 1001
 where id = 501;
select results_eq(
  format($$select state::int, deletion_scheduled_by, state_metadata ->> 'preserved_state'
             from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id where n.id = %s$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (2, 1001::bigint, 'archived'::text)$$,
  'archived and marked for deletion in one statement: scheduled for deletion, returning to archived');
select results_eq(
  $$select archived, marked_for_deletion_at, marked_for_deletion_by_user_id, pending_delete from legacy.projects where id = 501$$,
  $$values (true, '2024-01-02 03:04:05+00'::timestamptz, 1001::bigint, false)$$,
  'the legacy row keeps both, with the legacy time and user');
select results_eq(
  format($$select from_state::int, to_state::int from lifecycle.namespace_state_updates where namespace_id = %s order by id$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (0, 1), (1, 2)$$,
  'two history rows: archived, then scheduled');

update legacy.projects set marked_for_deletion_at = '2024-01-02 03:04:05+00', marked_for_deletion_by_user_id = 1001, pending_delete = true
 where id = 502;
select results_eq(
  format($$select state::int from lifecycle.namespaces where id = %s$$, lifecycle_test.id_of('acme/eng/docs')),
  $$values (4)$$,
  'marked for deletion and pending_delete in one statement: deletion in progress');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'the legacy data and the states agree');

select * from finish();
rollback;
