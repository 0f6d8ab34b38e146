-- A staged row whose legacy rows name two parents (legacy_parent_id is not parent_id: GitLab's
-- namespaces.parent_id of a project's namespace against projects.namespace_id) is rejected with
-- NS013 and left staged, not imported under either; one whose two parents agree, or that names
-- only one, is imported.
begin;
-- One import test at a time (see valid_rows_are_imported_with_their_ids_states_legacy_dates_and_actors).
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);

insert into lifecycle.namespace_imports (id, parent_id, type, path, name, legacy_parent_id) values
  (5300, null, 'group', 'two-parents', 'Two parents', null),
  (5301, 5300, 'group', 'left', 'Left', null),
  (5302, 5300, 'group', 'right', 'Right', null),
  (5303, 5301, 'project', 'torn', 'Torn', 5302),
  (5304, 5301, 'project', 'whole', 'Whole', 5301),
  (5305, 5302, 'project', 'plain', 'Plain', null);
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (5::bigint, 1::bigint)$$,
                  'all but the torn project are imported');
select results_eq($$select id, reject_code, reject_reason from lifecycle.namespace_imports$$,
                  $$values (5303::bigint, 'NS013'::text, 'its legacy rows name two parents, 5301 and 5302'::text)$$,
                  'the torn project stays staged with NS013, naming both parents');
select is((select count(*)::int from lifecycle.namespaces where id = 5303), 0, 'it is not imported under either');

select * from finish();
rollback;
