-- Every legacy path resolves to what it named, case included (docs/design.md §10.1): GitLab's user
-- ACME beside its group acme, and projects Docs and docs in one group, imported. The one renamed on
-- import keeps a redirect from its exact legacy path, which namespace_resolve tries before folding
-- case: ACME is the user, acme the group; grp/Docs and grp/docs are two projects; a path below the
-- user keeps its tail. A tree bridge's creation of a path equal, case aside, to a live
-- namespace's is refused (NS006, as GitLab refuses it): it would take that path over.
begin;
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(5);
-- The tree bridge first: adding it takes a lock on lifecycle.namespaces, which must not wait
-- behind another test's INSERT while this one holds the paths its import claimed (a deadlock).
create schema legacy;
create table legacy.ns (id bigint primary key, parent_id bigint, path text not null, name text not null, kind text not null);
select lifecycle.legacy_tree_bridge_add('legacy.ns', 'id', 'parent_id', 'path', 'name', null, 'kind', '{"U": "user", "G": "group"}');

insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (7100, null, 'group', 'acme', 'Acme'),
  (7101, null, 'user', 'ACME', 'A user'),
  (7102, 7101, 'project', 'dotfiles', 'Dotfiles'),
  (7103, null, 'group', 'grp', 'Group'),
  (7104, 7103, 'project', 'docs', 'docs'),
  (7105, 7103, 'project', 'Docs', 'Docs');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (6::bigint, 0::bigint)$$, 'all import');
select results_eq(
  $$select p, (select namespace_id from lifecycle.namespace_resolve(p)) from unnest(array[
      'ACME', 'acme', 'ACME/dotfiles', 'grp/Docs', 'grp/docs', 'GRP/docs', '/ACME/'
    ]) with ordinality as t(p, n) order by n$$,
  $$values ('ACME', 7101::bigint), ('acme', 7100), ('ACME/dotfiles', 7102), ('grp/Docs', 7105), ('grp/docs', 7104),
           ('GRP/docs', 7104), ('/ACME/', 7101)$$,
  'each legacy path resolves to what it named');
select results_eq($$select redirected from lifecycle.namespace_resolve('ACME')$$, $$values (true)$$, 'through a redirect');

select throws_ok($$insert into legacy.ns values (7110, null, 'Grp', 'Another user', 'U')$$, 'NS006', 'path grp is taken',
                 'a tree bridge''s creation of Grp beside the live grp is refused');
select results_eq($$select (select namespace_id from lifecycle.namespace_resolve('Grp')), (select namespace_id from lifecycle.namespace_resolve('grp'))$$,
                  $$values (7103::bigint, 7103::bigint)$$, 'and both paths still resolve to the group');

select * from finish();
rollback;
