begin;
select plan(7);

-- organization_move_in checks every staged row before it writes one, so that a stream cut short
-- or rows made by hand cannot leave what the rules forbid: NS010 naming the first fault.
select lifecycle_test.create_movable_organization('tampered');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('tampered') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;

select throws_ok(pg_temp.staged_as($$delete from lifecycle.organization_imports where kind = 'header'$$),
                 'NS010', 'no organization is staged', 'no header');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{schema_version}', '1') where kind = 'header'$$),
                 'NS010', 'the clusters are at different schema versions', 'another schema version');
select throws_ok(pg_temp.staged_as($$delete from lifecycle.organization_imports where ctid = (select min(ctid) from lifecycle.organization_imports where kind = 'member')$$),
                 'NS010', 'the staged organization is incomplete', 'a row missing');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{traversal_ids}', to_jsonb(array[(data ->> 'id')::bigint]))
                                      where kind = 'namespace' and data ->> 'path' = 'web'$$),
                 'NS010', 'the staged namespaces do not form the organization''s tree', 'a namespace off its parent''s path');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{state_changes}', '7')
                                      where kind = 'namespace' and data ->> 'path' = 'api'$$),
                 'NS010', 'the staged organization breaks the rules', 'history that does not count what the namespace counted');
select throws_ok(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{to_parent_id}', '0')
                                      where kind = 'transfer_request'$$),
                 'NS010', 'the staged organization breaks the rules', 'a transfer request to a parent not staged');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
