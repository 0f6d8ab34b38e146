begin;
select plan(3);

-- A redirect's kind says how namespace_resolve reads it (kind import: a legacy path, looked up in
-- its case before the live namespaces); a staged redirect of a kind this cluster does not know is
-- refused with NS010 naming the row before anything is written, where the table's check
-- constraint would refuse it with an internal error while writing.
select lifecycle_test.create_movable_organization('kindly');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('kindly') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
create temporary table renamed on commit drop as
select (e.data ->> 'id')::bigint as id from exported e where e.kind = 'redirect' and e.data ->> 'kind' = 'rename';

select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{kind}', '"alias"')
                                      where kind = 'redirect' and data ->> 'kind' = 'rename'$$),
                 'NS010', 'the staged organization breaks the rules', 'a redirect of kind alias');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = data - 'kind'
                                                        where kind = 'redirect' and data ->> 'kind' = 'rename'$$)),
          format('organization_id=%s redirect %s: unknown kind null', (select id from org), (select id from renamed)),
          'a redirect without a kind: the refusal names the row');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
