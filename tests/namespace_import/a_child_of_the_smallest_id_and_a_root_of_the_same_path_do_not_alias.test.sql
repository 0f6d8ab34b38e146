-- Sibling paths are keyed by coalesce(parent_id, 0), 0 standing for "no parent": no namespace may
-- have id 0 (docs/design.md §10), so the children of a namespace never share the roots' paths.
-- Staged: a root with id 0 and a child of it, refused (NS010, then NS004 below it), and a root
-- with the child's path, imported; a child of the smallest allowed id (1) and a root with the same
-- path, both imported, each resolving to itself.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(5);

set local role lifecycle_worker;
-- Id 1 may have been handed out by the sequence to a test that rolled back; none keeps it.
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values
  (0, null, 'organization', 'zero', 'Zero'),
  (7200, 0, 'group', 'acme-zero', 'Below zero'),
  (7201, null, 'organization', 'acme-zero', 'A root'),
  (1, null, 'organization', 'one', 'One'),
  (7202, 1, 'group', 'acme-one', 'Below one'),
  (7203, null, 'organization', 'acme-one', 'Another root');
select results_eq($$select * from lifecycle.namespace_import_apply()$$, $$values (4::bigint, 2::bigint)$$,
                  'four rows are imported, two rejected');
select results_eq($$select id, reject_code from lifecycle.namespace_imports order by id$$,
                  $$values (0::bigint, 'NS010'::text), (7200, 'NS004')$$,
                  'id 0 is refused, and its child below it');
select is((select namespace_id from lifecycle.namespace_resolve('acme-zero')), 7201::bigint,
          'the root acme-zero resolves to itself');
select is((select namespace_id from lifecycle.namespace_resolve('acme-one')), 7203::bigint,
          'the root acme-one resolves to itself, not to the child of namespace 1');
select is((select namespace_id from lifecycle.namespace_resolve('one/acme-one')), 7202::bigint,
          'the child of namespace 1 resolves at its own path');

select * from finish();
rollback;
