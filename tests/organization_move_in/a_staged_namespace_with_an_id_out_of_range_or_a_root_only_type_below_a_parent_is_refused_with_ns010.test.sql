begin;
select plan(3);
-- The namespace_types row added below rewrites the types' digest.
select lifecycle_test.lock_rule_tables();

-- An organization's staged rows fire no INSERT trigger of lifecycle.namespaces, so
-- organization_move_in judges the rules of a row that trigger judges for the others
-- (namespaces_traversal_ids_maintain): an id from 1 to 2^63 - 2, a root-only type only at the
-- root. NS010 before anything is written, where the check constraints refused while writing
-- (23514) until 056.
insert into lifecycle.namespace_types (name, description, root_only, transferable)
  values ('realm', 'A root-only type that moves.', true, true);
select lifecycle_test.create_movable_organization('ranged');
create temporary table web on commit drop as select lifecycle_test.id_of('ranged/platform/web') as id;
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('ranged') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;

-- web (a project, a leaf) with id 0: its row, its path and the rows that name it.
select throws_ok(pg_temp.staged_as(format($$
  update lifecycle.organization_imports
     set data = jsonb_set(jsonb_set(data, '{id}', '0'), '{traversal_ids}', ((data -> 'traversal_ids') - (-1)) || '0'::jsonb)
   where kind = 'namespace' and (data ->> 'id')::bigint = %1$s;
  update lifecycle.organization_imports set data = jsonb_set(data, '{namespace_id}', '0')
   where kind <> 'namespace' and (data ->> 'namespace_id')::bigint = %1$s$$, (select id from web))),
  'NS010', 'the staged organization breaks the rules', 'an id outside 1 to 2^63 - 2');
select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{type}', '"realm"')
                                             where kind = 'namespace' and (data ->> 'id')::bigint = %s$$, (select id from web))),
                 'NS010', 'the staged namespaces do not form the organization''s tree', 'a root-only type below a parent');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
