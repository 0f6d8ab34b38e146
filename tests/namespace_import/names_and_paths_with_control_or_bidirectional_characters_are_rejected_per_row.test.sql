-- The import refuses names and paths with a control or bidirectional formatting character per row
-- (docs/design.md §10): each such row stays staged with NS010 and a reason naming the code point
-- (a legacy path holding one is refused, not normalised), and the other rows of the batch are
-- imported. Run as lifecycle_worker, the import's role.
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(4);

-- Every refused character: C0 and C1 controls, DEL, and the bidirectional formatting characters.
create temporary table refused_characters on commit drop as
select cp, upper(lpad(to_hex(cp), 4, '0')) as hex
  from (select generate_series(1, 31) as cp union all select 127 union all select generate_series(128, 159)
        union all select unnest(array[1564, 8206, 8207, 8234, 8235, 8236, 8237, 8238, 8294, 8295, 8296, 8297])) c;
grant select on refused_characters to public;

set local role lifecycle_worker;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values (7500, null, 'organization', 'chars', 'Chars');
insert into lifecycle.namespace_imports (id, parent_id, type, path, name)
select 710000 + c.cp, 7500, 'group', 'name-' || c.cp, 'a' || chr(c.cp) || 'b' from refused_characters c;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name)
select 720000 + c.cp, 7500, 'group', 'Path ' || chr(c.cp) || c.cp, 'Fine' from refused_characters c;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name) values (7501, 7500, 'group', 'Fine Path', 'Fine');

select results_eq($$select imported from lifecycle.namespace_import_apply()$$, $$values (2::bigint)$$,
                  'two rows are imported: the root and the one clean row below it');
select is_empty(
  $$select s.id, s.reject_code, s.reject_reason from lifecycle.namespace_imports s join refused_characters c on s.id = 710000 + c.cp
     where s.reject_code is distinct from 'NS010'
        or s.reject_reason is distinct from format('name contains U+%s, a control or bidirectional formatting character', c.hex)$$,
  'every name with one of them is rejected with NS010, naming the code point');
select is_empty(
  $$select s.id, s.reject_code, s.reject_reason from lifecycle.namespace_imports s join refused_characters c on s.id = 720000 + c.cp
     where s.reject_code is distinct from 'NS010'
        or s.reject_reason is distinct from format('path contains U+%s, a control or bidirectional formatting character', c.hex)$$,
  'every path with one of them is rejected with NS010 (not normalised), naming the code point');
select results_eq($$select count(*) from lifecycle.namespace_imports$$,
                  $$select 2 * count(*) from refused_characters$$, 'only those rows stay staged');

select * from finish();
rollback;
