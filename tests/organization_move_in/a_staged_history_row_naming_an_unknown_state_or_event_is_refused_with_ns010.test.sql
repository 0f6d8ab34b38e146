begin;
select plan(4);

-- A history row names states and an event this cluster knows: organization_move_in refuses a
-- staged one that does not (NS010 naming the row), as it refuses every other fault before it
-- writes anything. (Until 056 the history's foreign keys refused it, 23503, while writing.)
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
-- The history row of the archive (the event create_movable_organization archives api with).
create temporary table archived on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'history' and e.data ->> 'event' = 'archive';

select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{event}', '"vanish"')
                                      where kind = 'history' and data ->> 'event' = 'archive'$$),
                 'NS010', 'the staged organization breaks the rules', 'an unknown event');
select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{from_state}', '%s')
                                             where kind = 'history' and data ->> 'event' = 'archive'$$,
                                          (select max(code) + 10 from lifecycle.states))),
                 'NS010', 'the staged organization breaks the rules', 'an unknown state');

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
select is(pg_temp.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{event}', '"vanish"')
                                                 where kind = 'history' and data ->> 'event' = 'archive'$$)),
          format('organization_id=%s history %s: unknown event ''vanish''', (select id from org), (select id from archived)),
          'the refusal names the row and what it names');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
