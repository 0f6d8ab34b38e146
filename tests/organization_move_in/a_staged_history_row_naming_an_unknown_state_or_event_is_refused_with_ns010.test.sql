begin;
select plan(4);

-- A history row names states and an event this cluster knows: organization_move_in refuses a
-- staged one that does not (NS010 naming the row), as it refuses every other fault before it
-- writes anything. (Until 056 the history's foreign keys refused it, 23503, while writing.)
select lifecycle_test.create_movable_organization('storied');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('storied') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
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

select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{event}', '"vanish"')
                                                 where kind = 'history' and data ->> 'event' = 'archive'$$)),
          format('organization_id=%s history %s: unknown event ''vanish''', (select id from org), (select id from archived)),
          'the refusal names the row and what it names');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
