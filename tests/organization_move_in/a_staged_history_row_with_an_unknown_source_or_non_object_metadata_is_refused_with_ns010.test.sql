begin;
select plan(6);

-- A history row names a way in this cluster's writers write (api, sql, import, bridge) and
-- carries metadata that is a JSON object: organization_move_in refuses a staged one that does not
-- (NS010 naming the row), before it writes anything. (Until 058 the history's CHECK constraints
-- refused it, 23514, while writing.)
select lifecycle_test.create_movable_organization('storied');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('storied') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
-- The history row of the archive (the event create_movable_organization archives api with).
create temporary table archived on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'history' and e.data ->> 'event' = 'archive';

select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{source}', '"syncer"')
                                      where kind = 'history' and data ->> 'event' = 'archive'$$),
                 'NS010', 'the staged organization breaks the rules', 'an unknown source');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{source}', '"syncer"')
                                                 where kind = 'history' and data ->> 'event' = 'archive'$$)),
          format('organization_id=%s history %s: unknown source ''syncer''', (select id from org), (select id from archived)),
          'the refusal names the row and its source');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{metadata}', '[1, 2]')
                                      where kind = 'history' and data ->> 'event' = 'archive'$$),
                 'NS010', 'the staged organization breaks the rules', 'metadata that is an array');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{metadata}', '"archived"')
                                                 where kind = 'history' and data ->> 'event' = 'archive'$$)),
          format('organization_id=%s history %s: metadata must be a JSON object', (select id from org), (select id from archived)),
          'metadata that is a string: the refusal names the row');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
-- The rows as exported move in.
select lives_ok(pg_temp.staged_as('select 1'), 'the untampered rows move in');

select * from finish();
rollback;
