-- A change holds its path with row locks no client role may take (docs/design.md §3.5): the
-- ancestors' namespace_details rows FOR KEY SHARE, its own FOR UPDATE, and no advisory lock at all
-- (their keys are shown in pg_locks, and any session may take them). That other sessions cannot
-- take them, and that the ancestors' own rows stay free, is race_test.go's. A statement changing
-- 600 states holds no more heavyweight locks than one change: row locks live in the rows.
begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'bulkco');
select lifecycle_test.create_namespace(lifecycle_test.id_of('bulkco'), 'group', 'many');
insert into lifecycle.namespaces (parent_id, type, path, name)
select lifecycle_test.id_of('bulkco/many'), 'project', 'p' || i, 'p' || i from generate_series(1, 600) i;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('bulkco'), 1001, 50);
select lifecycle.namespace_event(lifecycle_test.id_of('bulkco/many/p1'), 'archive', 1001);

-- A row locked or written by this transaction carries its xid in xmax.
create temporary view locked_by_me as
select d.namespace_id, d.xmax = pg_catalog.pg_current_xact_id()::text::xid as details_locked
  from lifecycle.namespace_details d;

select is(
  (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()),
  0, 'creations and a change hold no advisory lock');
select ok(
  (select bool_and(details_locked) from locked_by_me
    where namespace_id in (lifecycle_test.id_of('bulkco'), lifecycle_test.id_of('bulkco/many'), lifecycle_test.id_of('bulkco/many/p1'))),
  'the organization''s, the group''s and the project''s lock rows (namespace_details) are held');

create temporary table before as
select count(*)::int as n from pg_locks where pid = pg_backend_pid();
update lifecycle.namespaces set state = 1 where parent_id = lifecycle_test.id_of('bulkco/many') and state = 0;
select is(
  (select count(*)::int from lifecycle.namespaces where parent_id = lifecycle_test.id_of('bulkco/many') and state = 1),
  600, 'a statement archiving 599 more projects succeeds');
select is(
  (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()),
  0, 'and holds no advisory lock');
select cmp_ok(
  (select count(*)::int from pg_locks where pid = pg_backend_pid()) - (select n from before),
  '<=', 20, 'nor a heavyweight lock per row changed or per ancestor (relation locks only)');

select * from finish();
rollback;
