-- The import takes ids from 1 to 2^62 - 1 (docs/design.md §10): 0 (the "no parent" key of sibling
-- paths), negative ids, 2^62 and 2^63 - 1 are each rejected with NS010 on their own row, and the
-- rest of the batch is imported. Run as lifecycle_worker, the import's role.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (0, null, 'organization', 'id-zero', 'Zero'),
  (-7, null, 'organization', 'id-negative', 'Negative'),
  (-9223372036854775808, null, 'organization', 'id-min', 'Min'),
  (4611686018427387904, null, 'organization', 'id-two-62', '2^62'),
  (9223372036854775807, null, 'organization', 'id-max', 'Max'),
  (4611686018427387903, null, 'organization', 'id-largest', 'Largest allowed'),
  (7100, null, 'organization', 'id-plain', 'Plain'),
  (7101, 7100, 'group', 'below', 'Below');

select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (3::bigint, 5::bigint)$$,
                  'three rows are imported, five rejected');
select results_eq(
  $$select id, reject_code, reject_reason from lifecycle.namespace_imports order by id$$,
  $$values ('-9223372036854775808'::bigint, 'NS010'::text, 'namespace id -9223372036854775808 is outside 1 to 4611686018427387903 (2^62 - 1)'::text),
           (-7, 'NS010', 'namespace id -7 is outside 1 to 4611686018427387903 (2^62 - 1)'),
           (0, 'NS010', 'namespace id 0 is outside 1 to 4611686018427387903 (2^62 - 1)'),
           (4611686018427387904, 'NS010', 'namespace id 4611686018427387904 is outside 1 to 4611686018427387903 (2^62 - 1)'),
           (9223372036854775807, 'NS010', 'namespace id 9223372036854775807 is outside 1 to 4611686018427387903 (2^62 - 1)')$$,
  'each id out of range stays staged with NS010 and says the range');
select results_eq(
  $$select id from lifecycle.namespaces where path like 'id-%' or id = 7101 order by id$$,
  $$values (7100::bigint), (7101), (4611686018427387903)$$,
  'the other rows of the batch, the largest allowed id among them, are imported');
reset role;
select throws_ok(
  $$insert into lifecycle.namespaces (id, parent_id, type, path, name) values (0, null, 'organization', 'owner-zero', 'Z')$$,
  'NS010', 'namespace id 0 is outside 1 to 9223372036854775806 (2^63 - 2)',
  'not even the schema''s owner may write a namespace with id 0 (namespaces_traversal_ids_maintain)');

select * from finish();
rollback;
