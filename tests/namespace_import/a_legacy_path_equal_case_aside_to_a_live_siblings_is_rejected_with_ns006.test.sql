-- The import rejects a staged legacy path equal, case aside, to the path of a live namespace it
-- did not bring itself (NS006, on its own row), as it rejects the exact one: resolution folds
-- case, so the live namespace holds that path. And no import redirect takes over a path that
-- resolves today: a legacy path an earlier import redirected to another namespace gets no redirect
-- of its own. Two rows of one import that differ only by case still both come in (GitLab's old
-- data), the second with its id appended and a redirect from its exact path. Run as
-- lifecycle_worker, the import's role.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(5);
select lifecycle_test.create_namespace(null, 'organization', 'casing');
select lifecycle_test.create_namespace(lifecycle_test.id_of('casing'), 'group', 'platform');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('casing'), 1000, 50);
create temporary table ids on commit drop as
select lifecycle_test.id_of('casing') as org, lifecycle_test.id_of('casing/platform') as platform;
grant select on ids to lifecycle_worker;

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name)
select 7300, org, 'group', 'Platform', 'Platform, again' from ids union all
select 7301, org, 'group', 'Old Name', 'Old name' from ids union all
select 7302, org, 'group', 'docs', 'Docs' from ids union all
select 7303, org, 'group', 'DOCS', 'Docs, shouting' from ids;
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (3::bigint, 1::bigint)$$,
                  'three rows are imported, one rejected');
select results_eq($$select id, reject_code, reject_reason from lifecycle.namespace_imports order by id$$,
                  $$values (7300::bigint, 'NS006'::text, 'path platform is taken by a live sibling'::text)$$,
                  'Platform beside the live platform stays staged with NS006');
reset role;
-- 7301 moves on: its legacy paths still lead to it through the import's redirects.
select lifecycle.namespace_rename(7301, 'moved-on', 1000);
delete from lifecycle.namespace_imports;
set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name)
select 7304, org, 'group', 'Old Name', 'Another old name' from ids;
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (1::bigint, 0::bigint)$$,
                  'a later import brings another Old Name, which takes the free path old-name');
select results_eq($$select (select namespace_id from lifecycle.namespace_resolve(p)) from unnest(array[
                       'casing/Platform', 'casing/Old Name', 'casing/old name', 'casing/old-name', 'casing/DOCS', 'casing/docs'])
                     with ordinality t(p, n) order by n$$,
                  $$select platform from ids union all values (7301::bigint), (7301), (7304), (7303), (7302)$$,
                  'the paths that resolved before each import resolve where they did');
select results_eq($$select namespace_id, old_full_path from lifecycle.namespace_redirects where kind = 'import' order by 1, 2$$,
                  $$values (7301::bigint, 'casing/Old Name'::text), (7301, 'casing/old name'), (7303, 'casing/DOCS')$$,
                  'no import redirect for 7304: its legacy paths resolve to 7301 already');
reset role;

select * from finish();
rollback;
