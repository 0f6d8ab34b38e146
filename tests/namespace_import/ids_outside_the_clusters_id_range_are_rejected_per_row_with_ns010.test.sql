-- On a cluster with an id range of its own (lifecycle.id_range, set by id_range_set), the import
-- takes ids only within it: a staged row outside it is rejected with NS010 on its own row, the
-- rest of the batch is imported. Run as lifecycle_worker, the import's role.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);
-- The cluster's range, as id_range_set records it (its checks of the ids in use aside).
insert into lifecycle.id_range (first_id, last_id) values (1, 8000);

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (7200, null, 'organization', 'range-in', 'Inside'),
  (7201, 7200, 'group', 'below', 'Below'),
  (8001, null, 'organization', 'range-out', 'Past the range'),
  (4611686018427387903, null, 'organization', 'range-far', 'The import''s largest id');

select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (2::bigint, 2::bigint)$$,
                  'two rows are imported, two rejected');
select results_eq(
  $$select id, reject_code, reject_reason from lifecycle.namespace_imports order by id$$,
  $$values (8001::bigint, 'NS010'::text, 'namespace id 8001 is outside this cluster''s id range, 1 to 8000'::text),
           (4611686018427387903, 'NS010', 'namespace id 4611686018427387903 is outside this cluster''s id range, 1 to 8000')$$,
  'each id outside the range stays staged with NS010 and says the range');
select results_eq($$select id from lifecycle.namespaces where path like 'range-%' or path = 'below' order by id$$,
                  $$values (7200::bigint), (7201)$$,
                  'only the rows inside the range are imported (the identity sequence moves past those alone)');
reset role;

select * from finish();
rollback;
