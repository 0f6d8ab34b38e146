-- Importing is the operator's (lifecycle_worker): the application role may read the staging
-- table but not fill it or run the import; and setting the import's lifecycle.importing itself
-- skips no check: without the import's flag its INSERT is refused (settings_confirmed), even when
-- the statement sets it itself.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;

set local role lifecycle_app;
select throws_ok($$insert into lifecycle.namespace_imports (id, type, path, name) values (1, 'organization', 'x', 'x')$$,
                 '42501', null, 'lifecycle_app: cannot stage');
select throws_ok($$select * from lifecycle.namespace_import_apply()$$, '42501', null, 'lifecycle_app: cannot run the import');
set local lifecycle.importing = 'on';
select throws_ok($$insert into lifecycle.namespaces (parent_id, type, path, name) values (lifecycle_test.id_of('acme'), 'group', 'Bad Path', 'b')$$,
                 'NS010', 'lifecycle.importing is set outside the import', 'lifecycle_app: with lifecycle.importing set, an INSERT is refused (NS010) instead of skipping its checks');
reset lifecycle.importing;
-- Set in the middle of the statement, after it began (by the SELECT that feeds the INSERT).
select throws_ok($$insert into lifecycle.namespaces (parent_id, type, path, name)
                   select lifecycle_test.id_of('acme'), 'group', 'mid' || pg_catalog.set_config('lifecycle.importing', 'on', true), 'm'$$,
                 'NS010', 'lifecycle.importing is set outside the import',
                 'lifecycle_app: set by the statement itself, before its row, it is refused (NS010) as well');
reset role;
reset lifecycle.importing;

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values (9500, null, 'organization', 'by-worker', 'W');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (1::bigint, 0::bigint)$$,
                  'lifecycle_worker: stages and imports');
reset role;

select * from finish();
rollback;
