begin;
select plan(6);

-- A history row names a way in this cluster's writers write (api, sql, import, bridge) and
-- carries metadata that is a JSON object: organization_move_in refuses a staged one that does not
-- (NS010 naming the row), before it writes anything. (Until 058 the history's CHECK constraints
-- refused it, 23514, while writing.)
select lifecycle_test.create_movable_organization('storied');
create temporary table org on commit drop as select lifecycle_test.id_of('storied') as id;
select lifecycle.organization_move_out_start('storied', 'cluster-b');
create temporary table exported on commit drop as select e.* from org, lifecycle.organization_export(org.id) e;
select lifecycle.organization_move_out_finish(org.id) from org;

create function pg_temp.staged_as(tampering text) returns text language plpgsql as $$
begin
  delete from lifecycle.organization_imports;
  insert into lifecycle.organization_imports select (select id from pg_temp.org), e.kind, e.data from pg_temp.exported e;
  execute tampering;
  return 'select * from lifecycle.organization_move_in(' || (select id from pg_temp.org) || ', ''cluster-a'')';
end $$;
create function pg_temp.detail_of(statement text) returns text language plpgsql as $f$
declare
  detail text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics detail = pg_exception_detail;
  return detail;
end $f$;
-- The history row of the archive (the event create_movable_organization archives api with).
create temporary table archived on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'history' and e.data ->> 'event' = 'archive';

select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{source}', '"syncer"')
                                      where kind = 'history' and data ->> 'event' = 'archive'$$),
                 'NS010', 'the staged organization breaks the rules', 'an unknown source');
select is(pg_temp.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{source}', '"syncer"')
                                                 where kind = 'history' and data ->> 'event' = 'archive'$$)),
          format('organization_id=%s history %s: unknown source ''syncer''', (select id from org), (select id from archived)),
          'the refusal names the row and its source');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{metadata}', '[1, 2]')
                                      where kind = 'history' and data ->> 'event' = 'archive'$$),
                 'NS010', 'the staged organization breaks the rules', 'metadata that is an array');
select is(pg_temp.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{metadata}', '"archived"')
                                                 where kind = 'history' and data ->> 'event' = 'archive'$$)),
          format('organization_id=%s history %s: metadata must be a JSON object', (select id from org), (select id from archived)),
          'metadata that is a string: the refusal names the row');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
-- The rows as exported move in.
select lives_ok(pg_temp.staged_as('select 1'), 'the untampered rows move in');

select * from finish();
rollback;
