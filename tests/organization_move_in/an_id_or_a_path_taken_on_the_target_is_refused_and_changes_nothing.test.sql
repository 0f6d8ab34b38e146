begin;
select plan(6);

-- organization_move_in refuses, changing nothing: NS012 when an id the organization brings is in
-- use here, or lies in this cluster's range at or above what its sequence hands out next (the
-- cluster would hand it out again); NS006 when a live organization here holds its path.
select lifecycle_test.create_movable_organization('taken-i');
create temporary table org on commit drop as select lifecycle_test.id_of('taken-i') as id;
select lifecycle.organization_move_out_start('taken-i', 'cluster-b');
create temporary table exported on commit drop as select e.* from org, lifecycle.organization_export(org.id) e;

-- Still here: every namespace id is in use.
insert into lifecycle.organization_imports select org.id, e.kind, e.data from org, exported e;
select throws_like($$select * from lifecycle.organization_move_in((select id from org), 'cluster-a')$$,
                   'namespace id % of the organization is taken here', 'an id in use');
select is((select count(*) from lifecycle.organization_imports), 25::bigint, 'refused, the staged rows stay for the caller to roll back');
delete from lifecycle.organization_imports;

select lifecycle.organization_move_out_finish(org.id) from org;
-- A history id this cluster has not handed out yet (no range set: every id is this cluster's).
insert into lifecycle.organization_imports
select org.id, e.kind,
       case when e.kind = 'history' and (e.data ->> 'id')::bigint = (select max((x.data ->> 'id')::bigint) from exported x where x.kind = 'history')
            then jsonb_set(e.data, '{id}', to_jsonb((select last_value + 1000 from lifecycle.namespace_state_updates_id_seq)))
            else e.data end
  from org, exported e;
select throws_like($$select * from lifecycle.organization_move_in((select id from org), 'cluster-a')$$,
                   'history id % of the organization is taken here', 'an id the target would hand out itself');
delete from lifecycle.organization_imports;

-- A live organization here holds its path.
select lifecycle_test.create_namespace(null, 'organization', 'taken-i');
insert into lifecycle.organization_imports select org.id, e.kind, e.data from org, exported e;
select throws_ok($$select * from lifecycle.organization_move_in((select id from org), 'cluster-a')$$, 'NS006',
                 'path taken-i is taken', 'its path held here');
select is((select count(*) from lifecycle.namespaces n, org where n.traversal_ids[1] = org.id), 0::bigint, 'nothing of it was written');
select is((select count(*) from lifecycle.organization_moves m, org where m.organization_id = org.id and m.direction = 'in'),
          0::bigint, 'nor recorded');

select * from finish();
rollback;
