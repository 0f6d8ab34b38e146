-- When the schema's owner is a superuser, the import's writes skip the foreign keys and triggers
-- (replica mode) that would re-check what it checked itself; lifecycle.import_skip_rechecks = off
-- keeps them. Both ways import the same rows, with the same verdicts (docs/design.md §10).
begin;
-- One import test at a time: two transactions that each wrote namespaces and then import wait on
-- each other's path claims and the import's lock row, and may deadlock.
select pg_advisory_xact_lock(hashtext('lifecycle tests: import'));
select plan(3);

create temporary table staged on commit drop as
select * from (values
  (9100::bigint, null::bigint, 'organization'::text, 'twice'::text, 'Twice'::text, 'active'::text),
  (9101, 9100, 'group', 'Team A', 'A', 'archived'),
  (9102, 9101, 'project', 'p', 'P', 'deletion_scheduled'),
  (9103, 9102, 'project', 'q', 'Q', 'active'),
  (9104, 9100, 'group', 'api', 'Api', 'active')) v(id, parent_id, type, path, name, state);

insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state) select * from staged;
select * from lifecycle.namespace_import_apply();
create temporary table fast on commit drop as
select n.id, n.path, n.state, n.traversal_ids, d.state_metadata - 'last_updated_at' as md
  from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id where n.id between 9100 and 9104;
create temporary table fast_rejects on commit drop as select id, reject_code, reject_reason from lifecycle.namespace_imports;

-- Again, from scratch, with the re-checks kept.
set local session_replication_role = replica;
delete from lifecycle.namespace_state_updates where namespace_id between 9100 and 9104;
delete from lifecycle.namespace_redirects where namespace_id between 9100 and 9104;
delete from lifecycle.namespace_details where namespace_id between 9100 and 9104;
delete from lifecycle.namespaces where id between 9100 and 9104;
set local session_replication_role = origin;
delete from lifecycle.namespace_imports;
insert into lifecycle.namespace_imports (id, parent_id, type, path, name, state) select * from staged;
set local lifecycle.import_skip_rechecks = off;
select * from lifecycle.namespace_import_apply();

select set_eq(
  $$select n.id, n.path, n.state, n.traversal_ids, d.state_metadata - 'last_updated_at'
      from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id where n.id between 9100 and 9104$$,
  $$select * from fast$$, 'the same namespaces and details');
select set_eq($$select id, reject_code, reject_reason from lifecycle.namespace_imports$$, $$select * from fast_rejects$$,
              'the same verdicts');
select is((select count(*)::int from fast), 4, 'four rows imported each way (9103 is below a deletion, which is allowed)');

select * from finish();
rollback;
