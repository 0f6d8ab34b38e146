-- Legacy -> tree (docs/design.md §10.3): a changed path is a rename (a redirect from the old path),
-- a changed parent a move (a transfer, completed in the same transaction), a changed visibility or
-- name sets it; GitLab writes the project's namespaces row first (nothing) and its projects row
-- second (carried). What the rules refuse refuses the legacy statement with their code.
begin;
select plan(10);
select lifecycle_test.create_gitlab_tables();
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id) values
  (900003, 'Attic', 'attic', 900001, 'Group', 0, 1),
  (900011, 'Site', 'site', 900001, 'Project', 20, 1),
  (900012, 'Wiki', 'wiki', 900003, 'Project', 0, 1);
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id) values
  (9111, 'Site', 'site', 900001, 900011, 20, 1),
  (9112, 'Wiki', 'wiki', 900003, 900012, 0, 1);

update legacy.namespaces set path = 'handbook' where id = 900010;
update legacy.projects set path = 'handbook', name = 'Handbook' where id = 9100;
select results_eq($$select path, name from lifecycle.namespaces where id = 900010$$, $$values ('handbook', 'Handbook')$$,
                  'a new path and name rename the project');
select results_eq($$select old_full_path, new_full_path, kind, actor_id from lifecycle.namespace_redirects where namespace_id = 900010$$,
  $$values ('acme/platform/docs', 'acme/platform/handbook', 'rename', 42::bigint)$$, 'with the rename''s redirect, by the bridge''s actor');

update legacy.namespaces set parent_id = 900001 where id = 900010;
update legacy.projects set namespace_id = 900001 where id = 9100;
select results_eq($$select parent_id, traversal_ids, state from lifecycle.namespaces where id = 900010$$,
  $$values (900001::bigint, array[900001, 900010]::bigint[], 0::smallint)$$, 'a new parent moves it, and the move is done');
select results_eq($$select status from lifecycle.transfer_requests where namespace_id = 900010$$, $$values ('completed')$$,
                  'through a transfer request, completed');

update legacy.projects set visibility_level = 10 where id = 9100;
select is((select visibility from lifecycle.namespaces where id = 900010), 'internal', 'a new visibility level sets the visibility');

select throws_ok($$update legacy.projects set path = 'site' where id = 9100$$, 'NS006', null,
                 'a rename into a path a sibling holds fails with NS006');
select throws_ok($$update legacy.projects set visibility_level = 20 where id = 9112$$, 'NS002', null,
                 'a project more visible than its private group fails with NS002');
update legacy.namespace_settings set archived = true where namespace_id = 900002;
select throws_ok($$update legacy.projects set namespace_id = 900002 where id = 9111$$, 'NS002', null,
                 'a move below an archived group fails with NS002, the transfer''s guard');
select throws_ok($$update legacy.namespaces set type = 'User' where id = 900003$$, 'NS010', null, 'a changed type is refused');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
