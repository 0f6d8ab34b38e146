-- Legacy -> tree (docs/design.md §10.3): deleting a namespace's legacy row is its hard deletion, in
-- the same transaction: through deletion_scheduled and deletion_in_progress (history, source
-- bridge), then its rows, a snapshot in deleted_namespaces and the fact hard_deleted in the outbox;
-- its path is free at once. A hard delete is a worker's: lifecycle_app's legacy DELETE is NS005.
-- GitLab deletes a project's projects row (its trigger deletes the namespaces row), a user's
-- projects and then its namespace.
begin;
select plan(9);
select lifecycle_test.create_gitlab_tables();
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
values (900013, 'Dotfiles', 'dotfiles', 900005, 'Project', 20, 1);
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id)
values (9113, 'Dotfiles', 'dotfiles', 900005, 900013, 20, 1);
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;

set local role lifecycle_app;
select throws_ok($$delete from legacy.projects where id = 9100$$, 'NS005', null,
                 'lifecycle_app may not hard-delete a namespace by deleting its legacy row');
reset role;

delete from legacy.projects where id = 9100;
select is((select count(*) from lifecycle.namespaces where id = 900010), 0::bigint, 'deleting the projects row deletes the project');
select is((select count(*) from legacy.namespaces where id = 900010), 0::bigint, 'and its namespaces row is gone (GitLab''s trigger)');
select results_eq($$select full_path, type from lifecycle.deleted_namespaces where namespace_id = 900010$$,
                  $$values ('acme/platform/docs', 'project')$$, 'its snapshot is in deleted_namespaces');
select results_eq($$select from_state::int, to_state::int, source from lifecycle.namespace_state_updates where namespace_id = 900010 order by id$$,
                  $$values (0, 2, 'bridge'), (2, 4, 'bridge')$$, 'it went through the gate: scheduled, then started');
select is((select count(*) from lifecycle.facts where action = 'hard_deleted' and namespace_id = 900010), 1::bigint,
          'its fact is in the outbox');

-- A user: its projects, then its namespace; a new user takes the freed username.
delete from legacy.projects where namespace_id = 900005;
delete from legacy.namespaces where id = 900005;
select is((select count(*) from lifecycle.namespaces where id in (900005, 900013)), 0::bigint, 'deleting a user leaves no live namespace');
insert into legacy.namespaces (id, name, path, type, visibility_level, organization_id) values (900050, 'Alice 2', 'alice', 'User', 20, 1);
select results_eq($$select namespace_id from lifecycle.namespace_resolve('alice')$$, $$values (900050::bigint)$$,
                  'a new user takes the freed username, and the path resolves to it');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
