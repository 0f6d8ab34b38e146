begin;
select plan(5);

-- The header speaks for the organization whose rows are staged: one header, naming the same
-- organization and its path, or the move is refused with NS010 and nothing is written.
select lifecycle_test.create_movable_organization('headed');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('headed') as id;
create temporary table other on commit drop as select lifecycle_test.create_namespace(null, 'organization', 'headed-other') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;

select throws_ok(pg_temp.staged_as(format($$update lifecycle.organization_imports set data = jsonb_set(data, '{organization_id}', '%s')
                                             where kind = 'header'$$, (select id from other))),
                 'NS010', 'the staged organization breaks the rules', 'a header naming another organization');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$update lifecycle.organization_imports set data = jsonb_set(data, '{path}', '"headed-other"')
                                                 where kind = 'header'$$)),
          format('organization_id=%1$s header: organization %1$s at path headed-other, not %1$s at path headed', (select id from org)),
          'a header naming another path: the refusal says both');
select throws_ok(pg_temp.staged_as($$insert into lifecycle.organization_imports select organization_id, kind, data from lifecycle.organization_imports where kind = 'header'$$),
                 'NS010', 'the staged organization breaks the rules', 'a second header');
select is(lifecycle_test.detail_of(pg_temp.staged_as($$insert into lifecycle.organization_imports select organization_id, kind, data from lifecycle.organization_imports where kind = 'header'$$)),
          format('organization_id=%s header: 2 rows, one expected', (select id from org)),
          'the refusal counts the headers');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
