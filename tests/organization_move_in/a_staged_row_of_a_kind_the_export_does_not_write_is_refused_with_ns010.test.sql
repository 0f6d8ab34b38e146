begin;
select plan(3);

-- organization_export writes a header and rows of seven kinds; organization_move_in reads those
-- alone, so a row of any other kind (here a fact for the target's outbox, counted in the header
-- as if it were one of the organization's) would be left unread: refused with NS010 naming the
-- kind, and nothing is written.
select lifecycle_test.create_movable_organization('kinded');
create temporary table org on commit drop as select lifecycle_test.move_out_for_staging('kinded') as id;
create function pg_temp.staged_as(tampering text) returns text language sql as $$
  select lifecycle_test.staged_move_in((select id from pg_temp.org), tampering)
$$;
create temporary table smuggled on commit drop as
select $$insert into lifecycle.organization_imports (organization_id, kind, data)
         select organization_id, 'fact', '{"action": "organization_moved_in", "namespace_id": 1}' from lifecycle.organization_imports where kind = 'header';
         update lifecycle.organization_imports set data = jsonb_set(data, '{counts,fact}', '1') where kind = 'header'$$ as statement;

select throws_ok(pg_temp.staged_as((select statement from smuggled)),
                 'NS010', 'the staged organization breaks the rules', 'a row of kind fact');
select is(lifecycle_test.detail_of(pg_temp.staged_as((select statement from smuggled))),
          format('organization_id=%s kind fact: not a kind of row organization_export writes', (select id from org)),
          'the refusal names the kind');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');

select * from finish();
rollback;
