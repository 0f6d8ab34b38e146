-- Calling the import again after fixing rejected rows imports them, and their children rejected
-- with them (docs/design.md §10).
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state) values
  (8000, null, 'organization', 'org', 'Org', 'active'),
  (8001, 8000, 'group', 'team', repeat('x', 300), 'archived'),
  (8002, 8001, 'project', 'app', 'App', 'active');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (1::bigint, 2::bigint)$$,
                  'the group with a name too long, and its project, are rejected');
update lifecycle.namespace_imports set name = 'Team' where id = 8001;
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (2::bigint, 0::bigint)$$,
                  'after the fix both are imported');
select results_eq($$select id, state::int from lifecycle.namespaces where id between 8000 and 8002 order by id$$,
                  $$values (8000::bigint, 0), (8001, 1), (8002, 0)$$, 'with their states');
select is_empty($$select * from lifecycle.namespace_imports$$, 'nothing is left staged');

select * from finish();
rollback;
