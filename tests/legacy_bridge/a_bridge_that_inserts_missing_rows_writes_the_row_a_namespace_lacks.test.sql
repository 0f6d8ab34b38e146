-- insert_missing (docs/design.md §10.2): GitLab's namespace_settings bridge speaks for every group,
-- a group without a row is not archived, and archiving one through the API inserts its row
-- (created_at and updated_at, required without a default, take the change's time), so GitLab sees
-- the archive and the check has nothing to report.
begin;
select plan(3);
select lifecycle_test.create_gitlab_tables();
delete from legacy.namespace_settings where namespace_id = 900002;

select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'a group without a row is not archived, and is not');
select lifecycle.namespace_event(900002, 'archive', 42);
select results_eq($$select archived, created_at is not null from legacy.namespace_settings where namespace_id = 900002$$,
                  $$values (true, true)$$, 'archiving it inserts its row, archived');
select is_empty($$select * from lifecycle.legacy_bridge_check()$$, 'and the legacy data and the state agree');

select * from finish();
rollback;
