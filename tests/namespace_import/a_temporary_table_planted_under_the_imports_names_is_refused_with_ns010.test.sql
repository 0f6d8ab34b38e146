-- The import keeps its queue and progress in temporary tables that only it writes (docs/design.md
-- §10). A session that makes a temporary table under one of their names itself, to have the
-- import read it, is refused with NS010 before anything is written, and the staged rows keep their
-- verdicts. Run as lifecycle_worker, the import's role.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, reject_code, reject_reason) values
  (7700, null, 'organization', 'planted', 'Planted', 'NS010', 'earlier verdict');
-- A queue of its own, with a row that was never staged.
create temporary table lifecycle_import_queue on commit drop as
select 1 as level, s.* from lifecycle.namespace_imports s where false;
insert into pg_temp.lifecycle_import_queue (level, id, parent_id, type, path, name) values (1, 7701, null, 'organization', 'forged', 'F');

select throws_ok($$select * from lifecycle.namespace_import_batch(10)$$, 'NS010',
                 'a temporary table pg_temp.lifecycle_import_queue that the import did not make is in the way',
                 'a batch refuses to read a queue the session made');
select throws_ok($$select * from lifecycle.namespace_import_apply()$$, 'NS010',
                 'a temporary table pg_temp.lifecycle_import_queue that the import did not make is in the way',
                 'so does the import');
select is_empty($$select from lifecycle.namespaces where id in (7700, 7701)$$, 'nothing was imported');
select results_eq($$select id, reject_reason from lifecycle.namespace_imports$$,
                  $$values (7700::bigint, 'earlier verdict'::text)$$, 'and no verdict was cleared');

select * from finish();
rollback;
