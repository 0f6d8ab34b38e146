-- A legacy path equal, case aside, to a live sibling's is refused like the exact one (NS006), as
-- GitLab refuses it: a group `Platform` inserted beside `platform`, a user `ACME` beside the group
-- `acme`, a rename of a group to `PLATFORM`. Resolution folds case, so those paths name the live
-- namespace; nothing is created, renamed or redirected, and they still resolve where they did.
-- Run as GitLab's role (the application's, with all rights on its own tables).
begin;
select plan(7);
select lifecycle_test.create_gitlab_tables();
grant usage on schema legacy to lifecycle_app;
grant select, insert, update, delete on all tables in schema legacy to lifecycle_app;
insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
values (900003, 'Infra', 'infra', 900001, 'Group', 20, 1);

set local role lifecycle_app;
select throws_ok($$insert into legacy.namespaces (id, name, path, parent_id, type, visibility_level, organization_id)
                   values (900051, 'Platform', 'Platform', 900001, 'Group', 20, 1)$$,
                 'NS006', 'path acme/platform is taken', 'a group Platform beside platform');
select throws_ok($$insert into legacy.namespaces (id, name, path, type, visibility_level, organization_id)
                   values (900052, 'A', 'ACME', 'User', 20, 1)$$,
                 'NS006', 'path acme is taken', 'a user ACME beside the group acme');
select throws_ok($$update legacy.namespaces set path = 'PLATFORM' where id = 900003$$,
                 'NS006', 'path acme/platform is taken', 'a rename of infra to PLATFORM beside platform');
select lives_ok($$update legacy.namespaces set path = 'Tools' where id = 900003$$,
                'a rename to a path no sibling holds, case aside, goes through');
reset role;

select is_empty($$select * from lifecycle.namespaces where id in (900051, 900052)$$, 'nothing was created');
select is_empty($$select * from lifecycle.namespace_redirects where old_full_path in ('acme/Platform', 'ACME', 'acme/PLATFORM')$$,
                'no redirect from a path that resolves to another namespace');
select results_eq($$select (select namespace_id from lifecycle.namespace_resolve(p)) from unnest(array['acme/Platform', 'ACME', 'acme/Tools'])
                     with ordinality t(p, n) order by n$$,
                  $$values (900002::bigint), (900001), (900003)$$,
                  'the paths resolve where they did, and the renamed group at its new path');

select * from finish();
rollback;
