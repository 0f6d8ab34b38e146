begin;
select plan(5);

-- Each staged row is one row of the organization: a namespace, history row, redirect, webhook or
-- transfer request staged twice (counted so in the header), a membership staged twice, or a row
-- without its id is refused with NS010 naming it, before a unique index or key would refuse it
-- with an internal error, and nothing is written.
select lifecycle_test.create_movable_organization('twice');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('twice') as id;
create temporary table platform on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'namespace' and e.data ->> 'path' = 'platform';
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
-- The first row of a kind staged again, counted in the header.
create function pg_temp.repeating(kind text) returns text language sql as $$
  select format($s$insert into lifecycle.organization_imports (organization_id, kind, data)
                   select organization_id, kind, data from lifecycle.organization_imports where kind = %1$L
                    order by data::text limit 1;
                   update lifecycle.organization_imports set data = jsonb_set(data, array['counts', %1$L], to_jsonb((data #>> array['counts', %1$L])::bigint + 1))
                    where kind = 'header'$s$, kind)
$$;

select is(lifecycle_test.detail_of(pg_temp.staged_as(format($$
            insert into lifecycle.organization_imports (organization_id, kind, data)
            select organization_id, kind, data from lifecycle.organization_imports where kind = 'namespace' and (data ->> 'id')::bigint = %s;
            update lifecycle.organization_imports set data = jsonb_set(data, '{counts,namespace}', to_jsonb((data #>> '{counts,namespace}')::bigint + 1))
             where kind = 'header'$$, (select id from platform)))),
          format('organization_id=%s namespace %s: staged 2 times', (select id from org), (select id from platform)),
          'a namespace staged twice: the refusal names it');
select throws_ok(pg_temp.staged_as(pg_temp.repeating('history')), 'NS010', 'the staged organization breaks the rules', 'a history row staged twice');
select throws_ok(pg_temp.staged_as(pg_temp.repeating('member')), 'NS010', 'the staged organization breaks the rules', 'a membership staged twice');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = data - 'id'
                                                        where kind = 'redirect' and data ->> 'kind' = 'rename'$$)),
          format('organization_id=%s redirect with no id: no id', (select id from org)),
          'a redirect without its id: the refusal says so');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
