begin;
select plan(6);

-- The export carries the redirects of the organization's path and below, and the transfer
-- requests within it: here the organization was renamed from was-here to now-here (a redirect of
-- was-here, and of the old paths below it, which the rename left as they were), and its group
-- infra was given the group team of another organization (a redirect of away/team and a request
-- from away). On the target those paths are whoever holds them there, and the request names a
-- namespace that does not move: they stay behind, and the organization moves in with the rest
-- (a redirect of now-here/infra, left by a rename after the organization's).
-- One database plays both clusters, so this transaction takes the effective states' lock row FOR
-- KEY SHARE (the move out's DELETE) and then FOR UPDATE (the move in): taken FOR UPDATE first, so
-- that two such tests running at once wait for one another instead of deadlocking.
select 1 from lifecycle.lock_rows where name = 'effective_states' for update;
create temporary table org on commit drop as select lifecycle_test.create_movable_organization('was-here') as id;
create temporary table away on commit drop as select lifecycle_test.create_namespace(null, 'organization', 'away') as id;
select lifecycle_test.create_namespace(id, 'group', 'team') from away;
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) select id, 1000, 50 from away;
select lifecycle.namespace_transfer_request(lifecycle_test.id_of('away/team'), lifecycle_test.id_of('was-here/infra'), 1000);
select lifecycle.namespace_transfer_execute(lifecycle_test.id_of('away/team'));
select lifecycle.namespace_rename(id, 'now-here', 1000) from org;
select lifecycle.namespace_rename(lifecycle_test.id_of('now-here/infra'), 'ops', 1000);
create temporary table team on commit drop as select lifecycle_test.id_of('now-here/ops/team') as id;

select lifecycle.organization_move_out_start('now-here', 'cluster-b');
create temporary table exported on commit drop as select e.* from org, lifecycle.organization_export(org.id) e;
select results_eq($$select data ->> 'old_full_path' from exported where kind = 'redirect' order by 1$$,
                  $$values ('now-here/infra')$$,
                  'the export carries the redirects of the organization''s path and below alone');
select results_eq($$select (data ->> 'namespace_id')::bigint from exported where kind = 'transfer_request'$$,
                  $$select lifecycle_test.id_of('now-here/ops/tool')$$,
                  'and the transfer request within it, not the one from the other organization');
select lifecycle.organization_move_out_finish(org.id) from org;

insert into lifecycle.organization_imports select org.id, e.kind, e.data from org, exported e;
select lives_ok($$select * from lifecycle.organization_move_in((select id from org), 'cluster-a')$$, 'the organization moves in');
select results_eq($$select namespace_id from lifecycle.namespace_resolve('now-here/infra/team')$$, $$select id from team$$,
                  'its own old path leads to the group');
select is_empty($$select * from lifecycle.namespace_resolve('away/team')$$, 'the other organization''s old path leads nowhere');
select is_empty($$select * from lifecycle.check_invariants() c join lifecycle.namespaces n on n.id = c.namespace_id, org where n.traversal_ids[1] = org.id$$,
                'the invariants hold');

select * from finish();
rollback;
