-- An imported state leaves previous_state where the API's calls leave it (docs/design.md §10.1):
-- the state the way from active passes last. A failed hard delete returns there (deletion_failed),
-- so an imported deletion_in_progress whose deletion fails is requeued as deletion_scheduled,
-- keeping the state a restore returns to, as one the API started is; it is not made active.
begin;
-- One import test at a time (see valid_rows_are_imported_with_their_ids_states_legacy_dates_and_actors).
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

insert into lifecycle.namespace_imports (id, type, path, name, state, state_changed_at, state_changed_by, preserved_state) values
  (5100, 'group', 'purge-archived', 'Purge archived', 'deletion_in_progress', '2024-06-01', 8, 'archived'),
  (5101, 'group', 'purge', 'Purge', 'deletion_in_progress', '2024-06-01', null, null),
  (5102, 'group', 'closing', 'Closing', 'deletion_scheduled', '2024-06-01', 8, 'archived'),
  (5103, 'group', 'quiet', 'Quiet', 'maintenance', '2024-06-01', 8, 'active');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (4::bigint, 0::bigint)$$, 'every row is imported');
select results_eq(
  $$select namespace_id, state_metadata ->> 'previous_state', state_metadata ->> 'preserved_state'
      from lifecycle.namespace_details where namespace_id between 5100 and 5103 order by namespace_id$$,
  $$values (5100::bigint, 'deletion_scheduled'::text, 'archived'::text), (5101, 'deletion_scheduled', 'ancestor_inherited'),
           (5102, 'archived', 'archived'), (5103, 'ancestor_inherited', 'ancestor_inherited')$$,
  'previous_state: deletion_scheduled before deletion_in_progress, else the preserved state');

select lifecycle.sweep_deletion_failed(5100, 'disk full', 5);
select lifecycle.sweep_deletion_failed(5101, 'disk full', 5);
select results_eq(
  $$select n.id, n.state::int, d.state_metadata ->> 'preserved_state', n.deletion_scheduled_at
      from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
     where n.id in (5100, 5101) order by n.id$$,
  $$values (5100::bigint, 2, 'archived'::text, '2024-06-01'::timestamptz), (5101, 2, 'ancestor_inherited', '2024-06-01')$$,
  'a failed hard delete requeues them as deletion_scheduled, keeping the legacy date and the state a restore returns to');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
