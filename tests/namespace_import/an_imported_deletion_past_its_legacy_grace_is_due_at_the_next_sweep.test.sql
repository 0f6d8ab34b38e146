-- The dates the sweeper reads are the legacy ones (docs/design.md §10): a deletion scheduled ten
-- days ago in the legacy data, with a grace period of seven days, is due at the next sweep; one
-- scheduled two days ago is not.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(2);

update lifecycle.settings set deletion_adjourned_period_days = 7;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state, state_changed_at, state_changed_by) values
  (9000, null, 'organization', 'org', 'Org', 'active', null, null),
  (9001, 9000, 'project', 'old', 'Old', 'deletion_scheduled', pg_catalog.now() - interval '10 days', 42),
  (9002, 9000, 'project', 'recent', 'Recent', 'deletion_scheduled', pg_catalog.now() - interval '2 days', 42);
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (3::bigint, 0::bigint)$$, 'imported');
select results_eq(
  $$select namespace_id from lifecycle.sweep_deletion_candidates(pg_catalog.now(), 5, 100)$$,
  $$values (9001::bigint)$$,
  'the sweep finds the deletion scheduled ten days ago, not the one scheduled two days ago');

select * from finish();
rollback;
