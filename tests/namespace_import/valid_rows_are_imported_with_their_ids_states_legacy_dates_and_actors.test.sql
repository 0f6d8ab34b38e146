-- An import keeps what the legacy data says (docs/design.md §10): the application's ids, the
-- tree, the states with one history row each (from active, the legacy actor and time, source
-- import), the dates the sweeper reads, and a details row; the identity sequence moves past the
-- imported ids, and the tree is consistent.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(9);

insert into lifecycle.namespace_imports (id, parent_id, type, path, name, visibility, state, state_changed_at,
                                         state_changed_by, preserved_state, created_at) values
  (5000, null, 'organization', 'legacy', 'Legacy', 'public', 'active', null, null, null, '2020-01-01'),
  (5001, 5000, 'group', 'old', 'Old', 'internal', 'archived', '2024-05-01', 7, null, '2021-01-01'),
  (5002, 5000, 'group', 'team', 'Team', 'private', 'active', null, null, null, '2021-01-01'),
  (5003, 5002, 'project', 'gone', 'Gone', 'private', 'deletion_scheduled', '2024-06-01', 8, 'archived', '2022-01-01'),
  (5004, 5002, 'project', 'ops', 'Ops', 'private', 'maintenance', '2024-06-02', 9, null, '2022-01-01'),
  (5005, 5001, 'project', 'wiki', 'Wiki', 'internal', 'archived', '2024-04-01', 7, null, '2022-01-01'),
  (5006, 5002, 'project', 'new', 'New', 'private', 'creation_in_progress', '2024-06-03', null, null, '2024-06-03');

select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (7::bigint, 0::bigint)$$,
                  'every row is imported, none rejected');
select results_eq(
  $$select id, parent_id, traversal_ids, lifecycle.namespace_full_path(id), visibility, state::int, created_at::date
      from lifecycle.namespaces where id between 5000 and 5006 order by id$$,
  $$values (5000::bigint, null::bigint, '{5000}'::bigint[], 'legacy'::text, 'public'::text, 0, '2020-01-01'::date),
           (5001, 5000, '{5000,5001}', 'legacy/old', 'internal', 1, '2021-01-01'),
           (5002, 5000, '{5000,5002}', 'legacy/team', 'private', 0, '2021-01-01'),
           (5003, 5002, '{5000,5002,5003}', 'legacy/team/gone', 'private', 2, '2022-01-01'),
           (5004, 5002, '{5000,5002,5004}', 'legacy/team/ops', 'private', 6, '2022-01-01'),
           (5005, 5001, '{5000,5001,5005}', 'legacy/old/wiki', 'internal', 1, '2022-01-01'),
           (5006, 5002, '{5000,5002,5006}', 'legacy/team/new', 'private', 3, '2024-06-03')$$,
  'ids, tree, paths, visibility, states and creation dates are kept');
select results_eq(
  $$select namespace_id, from_state::int, to_state::int, actor_id, source, event, created_at, metadata
      from lifecycle.namespace_state_updates where namespace_id between 5000 and 5006 order by namespace_id$$,
  $$values (5001::bigint, 0, 1, 7::bigint, 'import'::text, null::text, '2024-05-01'::timestamptz, '{"reason": "imported"}'::jsonb),
           (5003, 0, 2, 8, 'import', null, '2024-06-01', '{"reason": "imported"}'),
           (5004, 0, 6, 9, 'import', null, '2024-06-02', '{"reason": "imported"}'),
           (5005, 0, 1, 7, 'import', null, '2024-04-01', '{"reason": "imported"}')$$,
  'one history row per imported state but active and creation_in_progress, from active, with the legacy actor and time');
select results_eq(
  $$select deletion_scheduled_at, deletion_scheduled_by, updated_at, state_changes from lifecycle.namespaces where id = 5003$$,
  $$values ('2024-06-01'::timestamptz, 8::bigint, '2024-06-01'::timestamptz, 1::bigint)$$,
  'the deletion keeps its legacy date and actor, which the sweeper reads');
select results_eq(
  $$select d.state_metadata from lifecycle.namespace_details d where d.namespace_id = 5003$$,
  $$values ('{"last_updated_at": "2024-06-01T00:00:00+00:00", "last_changed_by_user_id": 8, "previous_state": "archived", "preserved_state": "archived"}'::jsonb)$$,
  'the details row remembers where a restore returns, and the state before, as the API''s calls leave them');
select is((select count(*)::int from lifecycle.namespace_details where namespace_id between 5000 and 5006), 7,
          'every imported namespace has its details row');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');
select is_empty($$select * from lifecycle.namespace_imports$$, 'imported rows leave the staging table');
with fresh as (insert into lifecycle.namespaces (type, path, name) values ('organization', 'fresh', 'Fresh') returning id)
select ok((select id from fresh) > 5006, 'a namespace the application creates next gets an id past the imported ones');

select * from finish();
rollback;
