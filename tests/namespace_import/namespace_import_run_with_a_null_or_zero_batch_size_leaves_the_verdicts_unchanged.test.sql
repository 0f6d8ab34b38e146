-- CALL lifecycle.namespace_import_run(batch_size) refuses a null or zero batch size with NS010
-- before its prepare step, which clears the staged rows' verdicts and commits (docs/sql-api.md):
-- the rejected rows keep their codes and reasons. (Outside a transaction, where the prepare step
-- would have committed, the same is checked by TestAnImportRunWithABadBatchSizeCommitsNothing.)
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, reject_code, reject_reason) values
  (7300, null, 'team', 'bad-type', 'Bad', 'NS010', 'unknown type ''team''');
select throws_ok($$call lifecycle.namespace_import_run(null)$$, 'NS010', 'batch_size must be at least 1',
                 'a null batch size is refused with NS010');
select throws_ok($$call lifecycle.namespace_import_run(0)$$, 'NS010', 'batch_size must be at least 1',
                 'a zero batch size is refused with NS010');
select results_eq($$select id, reject_code, reject_reason from lifecycle.namespace_imports$$,
                  $$values (7300::bigint, 'NS010'::text, 'unknown type ''team'''::text)$$,
                  'the staged row keeps its code and reason');

select * from finish();
rollback;
