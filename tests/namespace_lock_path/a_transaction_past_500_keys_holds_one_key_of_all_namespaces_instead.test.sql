-- Ancestors and the changed namespace are held with advisory keys (docs/design.md §3.5), and
-- PostgreSQL's lock table is bounded: one change holds a few keys beside the key of all namespaces
-- shared; a statement changing 600 states takes that key exclusively once past 500 keys, and no more
-- keys, instead of 1,800 (every row's own key and its ancestors').
begin;
select plan(5);

create temporary table held as
select ((k >> 32) & 4294967295)::text::oid as classid, (k & 4294967295)::text::oid as objid
  from (values (-8605443955290538006::bigint)) v(k); -- hashtextextended('lifecycle namespaces (all)', 0)

select lifecycle_test.create_namespace(null, 'organization', 'bulkco');
select lifecycle_test.create_namespace(lifecycle_test.id_of('bulkco'), 'group', 'many');
insert into lifecycle.namespaces (parent_id, type, path, name)
select lifecycle_test.id_of('bulkco/many'), 'project', 'p' || i, 'p' || i from generate_series(1, 600) i;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('bulkco'), 1001, 50);

-- The INSERTs above hold sibling-path locks (step 3): count what each step below adds.
create temporary table before as
select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid();
select lifecycle.namespace_event(lifecycle_test.id_of('bulkco/many/p1'), 'archive', 1001);
select is(
  (select mode from pg_locks l join held h using (classid, objid)
    where l.locktype = 'advisory' and l.objsubid = 1 and l.pid = pg_backend_pid()),
  'ShareLock', 'one change holds the key of all namespaces shared');
select is(
  (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) - (select n from before),
  4, 'and three keys of its own: the organization''s and the group''s shared, the project''s exclusive');

update before set n = (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid());
update lifecycle.namespaces set state = 1 where parent_id = lifecycle_test.id_of('bulkco/many') and state = 0;
select is(
  (select count(*)::int from lifecycle.namespaces where parent_id = lifecycle_test.id_of('bulkco/many') and state = 1),
  600, 'a statement archiving 599 more projects succeeds');
select is(
  (select mode from pg_locks l join held h using (classid, objid)
    where l.locktype = 'advisory' and l.objsubid = 1 and l.pid = pg_backend_pid() and l.mode = 'ExclusiveLock'),
  'ExclusiveLock', 'past 500 keys the transaction holds the key of all namespaces exclusively');
select cmp_ok(
  (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) - (select n from before),
  '<=', 500, 'and no more than 500 keys of its own beside it, not one per row changed and per ancestor');

select * from finish();
rollback;
