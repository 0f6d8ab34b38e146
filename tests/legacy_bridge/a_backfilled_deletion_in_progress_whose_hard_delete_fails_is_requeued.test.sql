-- The backfill leaves previous_state as the import does (docs/design.md §10.2): the state the way
-- from active passes last, deletion_scheduled before deletion_in_progress. A failed hard delete
-- returns there (deletion_failed): a backfilled deletion_in_progress whose deletion fails is
-- requeued as deletion_scheduled, as one the API started is, not made active.
begin;
select plan(3);
select lifecycle_test.create_gitlab_legacy();

-- Legacy data written before the bridge existed (triggers off, as it was).
set local session_replication_role = replica;
update legacy.projects set archived = true, marked_for_deletion_at = '2024-03-04 05:06:07+00', marked_for_deletion_by_user_id = 77,
       pending_delete = true
 where id = 501;
set local session_replication_role = origin;

set local role lifecycle_worker;
select results_eq($$select backfilled, refused from lifecycle.legacy_bridge_backfill()$$, $$values (1::bigint, 0::bigint)$$,
                  'the project is backfilled');
reset role;
select results_eq(
  format($$select n.state::int, d.state_metadata ->> 'previous_state', d.state_metadata ->> 'preserved_state'
             from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id where n.id = %s$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (4, 'deletion_scheduled'::text, 'archived'::text)$$,
  'deletion_in_progress, after deletion_scheduled, preserving archived');
select lifecycle.sweep_deletion_failed(lifecycle_test.id_of('acme/eng/site'), 'disk full', 5);
select results_eq(
  format($$select n.state::int, d.state_metadata ->> 'preserved_state' from lifecycle.namespaces n
             join lifecycle.namespace_details d on d.namespace_id = n.id where n.id = %s$$, lifecycle_test.id_of('acme/eng/site')),
  $$values (2, 'archived'::text)$$,
  'a failed hard delete requeues it as deletion_scheduled, still preserving archived');

select * from finish();
rollback;
