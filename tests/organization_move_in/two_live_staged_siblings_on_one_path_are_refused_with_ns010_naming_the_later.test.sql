begin;
select plan(3);

-- Two staged siblings that both hold their path (live) cannot share it: organization_move_in
-- refuses the organization with NS010 naming the later one (the unique index of live paths would
-- otherwise refuse it with an internal 23505, or a cluster without it would hold two), and writes
-- nothing of it. Here web, below platform, is staged with the path of api, its archived sibling.
select lifecycle_test.create_movable_organization('twins');
create temporary table org on commit drop as
select lifecycle_test.id_of('twins') as id, lifecycle_test.id_of('twins/platform/web') as web;
select lifecycle.organization_move_out_start('twins', 'cluster-b');
create temporary table exported on commit drop as select e.* from org, lifecycle.organization_export(org.id) e;
select lifecycle.organization_move_out_finish(org.id) from org;

delete from lifecycle.organization_imports;
insert into lifecycle.organization_imports select (select id from pg_temp.org), e.kind, e.data from pg_temp.exported e;
update lifecycle.organization_imports set data = jsonb_set(data, '{path}', '"api"')
 where kind = 'namespace' and data ->> 'path' = 'web';

-- The refusal's code and detail, as the caller sees them.
create function pg_temp.refusal(statement text) returns text language plpgsql as $$
declare
  code text;
  detail text;
begin
  execute statement;
  return 'not refused';
exception when others then
  get stacked diagnostics code = returned_sqlstate, detail = pg_exception_detail;
  return code || ': ' || detail;
end $$;

select is(pg_temp.refusal('select * from lifecycle.organization_move_in(' || (select id from org) || ', ''cluster-a'')'),
          (select format('NS010: organization_id=%s namespace %s: path api is held by another live sibling', org.id, org.web) from org),
          'the later of the two live siblings on one path is named');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
select is((select count(*) from lifecycle.organization_imports i, org where i.organization_id = org.id),
          (select count(*) from exported), 'the staged rows stay');

select * from finish();
rollback;
