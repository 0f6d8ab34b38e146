-- legacy_tree_bridge_add (docs/design.md §10.3) checks every identifier against the catalog and
-- refuses with NS010 what it cannot bridge: a missing column or one of the wrong type, types that
-- do not fit the type column, a type not in the tree, required columns the write-back could not
-- fill, a second tree bridge on one table; a legacy row of a namespace whose parent the lifecycle
-- does not know yet is left alone (the bridge is inert for what is not imported).
begin;
select plan(8);
create schema legacy;
create table legacy.ns (id bigint primary key, parent_id bigint, path text not null, name text not null, lvl int not null default 0,
                        kind text not null, org bigint not null);

select throws_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'nope', 'parent_id', 'path', 'name')$$, 'NS010', null,
                 'a missing column');
select throws_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'path', 'parent_id', 'path', 'name')$$, 'NS010', null,
                 'an id column that is not an integer');
select throws_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'id', 'parent_id', 'path', 'name', 'lvl', 'kind', '"group"')$$,
                 'NS010', null, 'a type column with a JSON string for types');
select throws_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'id', 'parent_id', 'path', 'name', 'lvl', 'kind', '{"G": "team"}')$$,
                 'NS010', null, 'a type not in the tree');
select throws_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'id', 'parent_id', 'path', 'name', 'lvl', 'kind', '{"G": "group"}')$$,
                 'NS010', null, 'a required column (org) the write-back could not fill');
select lives_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'id', 'parent_id', 'path', 'name', 'lvl', 'kind', '{"G": "group"}',
                                                          row_defaults => '{"org": 7}')$$, 'with a value for it in row_defaults');
select throws_ok($$select lifecycle.legacy_tree_bridge_add('legacy.ns', 'id', 'parent_id', 'path', 'name', 'lvl', 'kind', '{"G": "group"}',
                                                           row_defaults => '{"org": 7}')$$, 'NS010', null, 'a second tree bridge on one table');
insert into legacy.ns (id, parent_id, path, name, kind, org) values (900901, 123456789, 'orphan', 'Orphan', 'G', 7);
select is((select count(*) from lifecycle.namespaces where id = 900901), 0::bigint,
          'a row below a parent the lifecycle does not know is left alone');

select * from finish();
rollback;
