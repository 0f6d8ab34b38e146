-- The import judges every staged row and imports only the valid ones (docs/design.md §10): each
-- invalid row stays staged with its documented code and a reason, a row below a rejected row is
-- rejected too, saying so, and nothing outside the valid rows changes.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
insert into lifecycle.namespaces (id, parent_id, type, path, name) values (6099, lifecycle_test.id_of('acme'), 'group', 'taken', 'Taken');
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, visibility, state, preserved_state) values
  (6000, null, 'organization', 'root', 'Root', 'internal', 'active', null),
  (6001, 6000, 'project', 'app', 'App', 'private', 'active', null),
  (6002, 6001, 'project', 'inner', 'Inner', 'private', 'active', null),            -- below a project
  (6003, 6002, 'project', 'deeper', 'Deeper', 'private', 'active', null),          -- below a rejected row
  (6004, 6000, 'team', 'weird', 'Weird', 'private', 'active', null),               -- unknown type
  (6005, 6000, 'organization', 'sub', 'Sub', 'private', 'active', null),           -- organization with a parent
  (6006, 6000, 'group', 'loud', 'Loud', 'public', 'active', null),                 -- more visible than its parent
  (6007, 6000, 'group', 'moving', 'Moving', 'private', 'transfer_in_progress', null),
  (6008, 6000, 'group', 'odd', 'Odd', 'private', 'sleeping', null),                -- unknown state
  (6009, 6000, 'group', 'pres', 'Pres', 'private', 'deletion_scheduled', 'maintenance'), -- preserved not permanent
  (6010, 6000, 'group', 'maint', 'Maint', 'private', 'maintenance', 'archived'),   -- maintenance from archived
  (6011, 6000, 'group', 'longname', repeat('n', 256), 'private', 'active', null),
  (6012, 6000, 'group', 'dup', 'Dup', 'private', 'active', null),
  (6013, 6000, 'group', 'dup', 'Dup again', 'private', 'active', null),            -- same path below one parent
  (6014, 9999999, 'group', 'orphan', 'Orphan', 'private', 'active', null),         -- no parent
  (6015, 6016, 'group', 'c1', 'C1', 'private', 'active', null),                    -- a cycle
  (6016, 6015, 'group', 'c2', 'C2', 'private', 'active', null),
  (6099, null, 'organization', 'clash', 'Clash', 'private', 'active', null),        -- id in use
  (6017, 6000, 'group', 'fine', 'Fine', 'private', 'archived', null),
  (6018, 6000, 'group', 'secret', 'Secret', 'sideways', 'active', null);             -- unknown visibility
insert into lifecycle.namespace_imports (id, parent_id, type, path, name)
values (6019, lifecycle_test.id_of('acme'), 'group', 'taken', 'Taken twice');      -- a live sibling holds the path

select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (4::bigint, 17::bigint)$$,
                  'four rows are imported (root, app, dup, fine), seventeen rejected');
select results_eq(
  $$select id, reject_code from lifecycle.namespace_imports order by id$$,
  $$values (6002::bigint, 'NS010'::text), (6003, 'NS004'), (6004, 'NS010'), (6005, 'NS010'), (6006, 'NS002'), (6007, 'NS010'),
           (6008, 'NS010'), (6009, 'NS010'), (6010, 'NS010'), (6011, 'NS010'), (6013, 'NS006'), (6014, 'NS004'), (6015, 'NS010'),
           (6016, 'NS010'), (6018, 'NS010'), (6019, 'NS006'), (6099, 'NS010')$$,
  'each rejected row has its code');
select results_eq(
  $$select id, reject_reason from lifecycle.namespace_imports where id in (6002, 6003, 6007, 6013, 6014, 6015, 6019, 6099) order by id$$,
  $$values (6002::bigint, 'a project cannot have children'::text),
           (6003, 'below rejected row 6002 (NS010: a project cannot have children)'),
           (6007, 'a transfer in progress cannot be imported: finish or cancel it first'),
           (6013, 'path dup is staged twice below one parent (row 6012 has it)'),
           (6014, 'parent 9999999 is neither a namespace nor importable'),
           (6015, 'on or below a cycle of parents'),
           (6019, 'path taken is taken by a live sibling'),
           (6099, 'namespace id 6099 is in use')$$,
  'the reasons say why, and a row below a rejected row names it');
select results_eq(
  $$select id from lifecycle.namespaces where id between 6000 and 6099 order by id$$,
  $$values (6000::bigint), (6001), (6012), (6017), (6099)$$,
  'only the valid rows were written (6099 is the namespace that was there)');

select * from finish();
rollback;
