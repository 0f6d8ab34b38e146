-- Lifecycle -> legacy for the tree (docs/design.md §10.3): a creation, rename, move, visibility
-- change and hard delete made through the API are written to every bridged table's rows of the
-- namespace in the same transaction (GitLab's namespaces row and, for a project, its projects
-- row), and nothing comes back: one redirect per rename, one transfer per move.
begin;
select plan(8);
select lifecycle_test.create_gitlab_tables();

insert into lifecycle.namespaces (parent_id, type, path, name, visibility) values (900002, 'project', 'made', 'Made', 'internal');
select results_eq(
  $$select n.type, n.parent_id, n.path, n.name, n.visibility_level, n.organization_id, p.namespace_id, p.path, p.visibility_level
      from legacy.namespaces n join legacy.projects p on p.project_namespace_id = n.id
     where n.id = lifecycle_test.id_of('acme/platform/made')$$,
  $$values ('Project'::varchar, 900002::bigint, 'made'::varchar, 'Made'::varchar, 10, 1::bigint, 900002::bigint, 'made'::varchar, 10)$$,
  'a project created through the API gets its namespaces and projects rows');
select cmp_ok((select last_value from legacy.namespaces_id_seq), '>=', lifecycle_test.id_of('acme/platform/made'),
              'and GitLab''s own id sequence is moved past its id');

select lifecycle.namespace_rename(900010, 'handbook', 42);
select results_eq($$select n.path, p.path from legacy.namespaces n join legacy.projects p on p.project_namespace_id = n.id where n.id = 900010$$,
                  $$values ('handbook'::varchar, 'handbook'::varchar)$$, 'a rename is written to both rows');
select is((select count(*) from lifecycle.namespace_redirects where namespace_id = 900010), 1::bigint, 'once: nothing came back');

select lifecycle.namespace_set_visibility(900010, 'private', 42);
select results_eq($$select n.visibility_level, p.visibility_level from legacy.namespaces n join legacy.projects p on p.project_namespace_id = n.id
                     where n.id = 900010$$, $$values (0, 0)$$, 'a visibility change is written as GitLab''s level');

select lifecycle.namespace_transfer_request(900010, 900001, 42);
select lifecycle.namespace_transfer_execute(900010);
select results_eq($$select n.parent_id, p.namespace_id from legacy.namespaces n join legacy.projects p on p.project_namespace_id = n.id
                     where n.id = 900010$$, $$values (900001::bigint, 900001::bigint)$$, 'a move is written to both rows');

update legacy.namespace_settings set archived = false where namespace_id = 900002;
select lifecycle.namespace_event(900002, 'schedule_deletion', 42);
select lifecycle.namespace_event(900002, 'deletion_start', 42);
select lifecycle.namespace_hard_delete(900002, null);
select results_eq($$select (select count(*) from legacy.namespaces where id in (900002, lifecycle_test.id_of('acme/platform/made'))),
                           (select count(*) from legacy.namespace_settings where namespace_id = 900002),
                           (select count(*) from legacy.group_deletion_schedules where group_id = 900002)$$,
                  $$values (0::bigint, 0::bigint, 0::bigint)$$, 'a hard delete deletes the rows of the group and of what was below it');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
