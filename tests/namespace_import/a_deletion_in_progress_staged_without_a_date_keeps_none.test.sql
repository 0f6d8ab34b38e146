-- An imported deletion_in_progress staged without a date (GitLab's pending_delete without a
-- deletion mark: an immediate deletion in flight) keeps no deletion date: none is made up from the
-- namespace's creation. One staged with a date keeps it.
begin;
-- One import test at a time (see valid_rows_are_imported_with_their_ids_states_legacy_dates_and_actors).
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);

insert into lifecycle.namespace_imports (id, type, path, name, state, state_changed_at, state_changed_by, created_at) values
  (5200, 'group', 'purge-now', 'Purge now', 'deletion_in_progress', null, null, '2020-01-01'),
  (5201, 'group', 'purge-later', 'Purge later', 'deletion_in_progress', '2024-06-01', 8, '2020-01-01');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (2::bigint, 0::bigint)$$, 'both are imported');
select results_eq(
  $$select id, lifecycle.state_name(state), deletion_scheduled_at, deletion_scheduled_by
      from lifecycle.namespaces where id in (5200, 5201) order by id$$,
  $$values (5200::bigint, 'deletion_in_progress'::text, null::timestamptz, null::bigint),
           (5201, 'deletion_in_progress', '2024-06-01'::timestamptz, 8)$$,
  'no deletion date without a staged one; the staged one kept');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
