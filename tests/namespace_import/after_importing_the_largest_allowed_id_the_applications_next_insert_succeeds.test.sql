-- The import moves the identity sequence past the ids it imports, and refuses ids from 2^62 up
-- (docs/design.md §10), so the sequence keeps room for the application: after a batch with the
-- largest allowed id (and 2^63 - 1, refused), the application's next INSERT succeeds, and the
-- imported namespace can be archived (the guards' subtree bound, its id + 1, does not overflow).
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (4611686018427387903, null, 'organization', 'largest', 'Largest'),
  (9223372036854775807, null, 'organization', 'too-large', 'Too large');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (1::bigint, 1::bigint)$$,
                  'the largest allowed id is imported, 2^63 - 1 is rejected');
reset role;

set local role lifecycle_app;
select lives_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'organization', 'after-import', 'After')$$,
  'lifecycle_app: the next INSERT succeeds');
select ok((select id from lifecycle.namespaces where path = 'after-import' and parent_id is null) > 4611686018427387903,
          'and its id comes after the imported one');
reset role;

set local role lifecycle_worker;
select results_eq(
  $$select to_state, changed from lifecycle.namespace_transition(4611686018427387903, 'archived', null)$$,
  $$values ('archived'::text, true)$$,
  'the namespace with the largest allowed id can be archived');
reset role;

select * from finish();
rollback;
