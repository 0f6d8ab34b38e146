-- Legacy paths the path rules refuse are importable (docs/design.md §10): they are normalised to
-- a valid slug (the namespace's id appended when the result is reserved or taken) and a redirect
-- keeps the legacy path resolving; a path that differs only by case resolves as it is (resolve is
-- case-insensitive), unless folding its case finds another namespace: then a redirect keeps the
-- exact legacy path, which resolve looks up first. New writes still obey the rules.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(7);

insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (7000, null, 'organization', 'Admin.Team', 'Admin'),
  (7001, 7000, 'group', 'Platform Team (old)', 'Platform'),
  (7002, 7001, 'project', 'site', 'Site'),
  (7003, null, 'organization', 'api', 'The API org'),
  (7004, 7000, 'group', 'docs', 'Docs'),
  (7005, 7000, 'group', 'DOCS', 'Docs, shouting');

select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (6::bigint, 0::bigint)$$,
                  'every legacy path is importable');
select results_eq(
  $$select id, path from lifecycle.namespaces where id between 7000 and 7005 order by id$$,
  $$values (7000::bigint, 'admin.team'::text), (7001, 'platform-team-old'), (7002, 'site'), (7003, 'api-7003'),
           (7004, 'docs'), (7005, 'docs-7005')$$,
  'normalised: lowercase, a slug, and the id appended for a reserved name or a taken path');
select results_eq(
  $$select (select namespace_id from lifecycle.namespace_resolve(p)) from unnest(array[
      'Admin.Team', 'Admin.Team/Platform Team (old)/site', 'api', 'admin.team/platform-team-old'
    ]) with ordinality as t(p, n) order by n$$,
  $$values (7000::bigint), (7002), (7003), (7001)$$,
  'the legacy paths resolve, through a redirect where more than case changed');
select is_empty(
  $$select * from lifecycle.namespace_redirects where kind = 'import' and namespace_id in (7000, 7002, 7004)$$,
  'no redirect where only case changed');
select results_eq(
  $$select old_full_path, (select namespace_id from lifecycle.namespace_resolve('Admin.Team/DOCS')),
           (select namespace_id from lifecycle.namespace_resolve('admin.team/docs'))
      from lifecycle.namespace_redirects where kind = 'import' and namespace_id = 7005$$,
  $$values ('admin.team/DOCS', 7005::bigint, 7004::bigint)$$,
  'where the lowercase legacy path is a live sibling''s, one redirect from the exact legacy path: DOCS is 7005, docs 7004');
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (7000, 'group', 'New Team', 'New')$$,
  'NS010', 'invalid path', 'new writes still obey the path rules');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
