begin;
-- One import test at a time (tests/namespace_import).
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);

-- An existing organization, archived, and an import below it: the imported rows read their
-- effective state through it.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle.effective_states_refresh();
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state, state_changed_at) values
  (5000, lifecycle_test.id_of('acme'), 'group', 'legacy', 'Legacy', 'active', null),
  (5001, 5000, 'group', 'old', 'Old', 'deletion_scheduled', '2024-05-01'),
  (5002, 5001, 'project', 'wiki', 'Wiki', 'active', null);
select * from lifecycle.namespace_import_apply();
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme');

-- The import's fact for the batch names its id range (namespace_import_batch); the archive's is
-- applied with it.
select is(
  lifecycle_test.apply(array[
    '{"action": "namespaces_imported", "details": {"imported": 3, "first_id": 5000, "last_id": 5002}}'::jsonb,
    lifecycle_test.fact_of('archived', lifecycle_test.id_of('acme'), '{"to_state": "archived"}')]),
  4::bigint,
  'the three imported rows are added and the archived organization''s changed'
);
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint, 'the table equals its definition');
select results_eq(
  $$select full_path, effective_state, self_or_ancestor_archived from lifecycle.effective_states where namespace_id = 5002$$,
  $$values ('acme/legacy/old/wiki'::text, 'deletion_scheduled'::text, true)$$,
  'an imported project reads its imported parent''s state and its organization''s archive'
);

select * from finish();
rollback;
