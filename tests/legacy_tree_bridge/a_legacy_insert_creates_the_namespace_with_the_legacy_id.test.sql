-- Legacy -> tree (docs/design.md §10.3): GitLab's INSERTs create the namespaces with the legacy ids,
-- in the same transaction: a group, a user, and a project, whose namespaces row comes first (a row
-- of a type namespaces does not speak for: nothing) and its projects row second (the project, with
-- the project's data). A legacy path the rules refuse gets the import's normalised path (with the
-- id appended when that is reserved or taken) and redirects from the legacy path; the identity
-- sequence moves past the legacy ids.
begin;
select plan(8);
select lifecycle_test.create_gitlab_tables();

select results_eq($$select id, parent_id, type, path, name, visibility from lifecycle.namespaces where id >= 900000 order by id$$,
  $$values (900001::bigint, null::bigint, 'group', 'acme', 'Acme', 'public'), (900002, 900001, 'group', 'platform', 'Platform', 'public'),
           (900005, null, 'user', 'alice', 'Alice', 'public'), (900010, 900002, 'project', 'docs', 'Docs', 'public')$$,
  'groups, users and projects are created with their legacy ids, parents, paths, names and visibilities');
select cmp_ok((select last_value from lifecycle.namespaces_id_seq), '>=', 900010::bigint, 'the identity sequence is past the legacy ids');

insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
values (900020, 'Handbook', 'Handbook', 900002, 'Project', 0, 1);
select is((select count(*) from lifecycle.namespaces where id = 900020), 0::bigint,
          'a project''s namespaces row alone creates nothing (projects speaks for projects)');
insert into legacy.projects (id, name, path, namespace_id, project_namespace_id, visibility_level, organization_id)
values (9120, 'The Handbook', 'Handbook', 900002, 900020, 0, 1);
select results_eq($$select type, path, name, visibility from lifecycle.namespaces where id = 900020$$,
  $$values ('project', 'handbook', 'The Handbook', 'private')$$, 'its projects row creates the project, with the project''s data');

insert into legacy.namespaces (id, name, path, type, visibility_level, organization_id) values (900030, 'J', 'John.Doe', 'User', 20, 1);
select results_eq($$select path from lifecycle.namespaces where id = 900030$$, $$values ('john.doe')$$,
  'a legacy path with capitals gets its normalised path');
insert into legacy.namespaces (id, name, path, type, visibility_level, organization_id) values (900031, 'A', 'Admin', 'User', 20, 1);
select results_eq($$select n.path, r.old_full_path, r.new_full_path, r.kind
                      from lifecycle.namespaces n join lifecycle.namespace_redirects r on r.namespace_id = n.id where n.id = 900031
                     order by r.old_full_path$$,
  $$values ('admin-900031', 'Admin', 'admin-900031', 'import'), ('admin-900031', 'admin', 'admin-900031', 'import')$$,
  'a user Admin (a reserved root path) gets the id appended, and redirects from the exact and the lowercase legacy path');
select results_eq($$select n.path, lifecycle.legacy_path_matches('John.Doe', n.path, n.id) from lifecycle.namespaces n where id = 900030$$,
  $$values ('john.doe', true)$$, 'which the legacy path matches, so writing it back changes nothing');
select is((select count(*) from lifecycle.facts where action = 'namespace_created' and namespace_id in (900020, 900030)), 2::bigint,
          'each creation is an ordinary one: its fact in the outbox');

select * from finish();
rollback;
