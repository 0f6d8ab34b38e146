begin;
select plan(6);

-- A transfer into an organization that is moving to another cluster is refused with NS011, at
-- request and at accept, as every other write to it; nothing is written. Run as the application.
select lifecycle_test.create_movable_organization('mover-x');
select lifecycle_test.create_namespace(null, 'organization', 'stayer-x');
select lifecycle_test.create_namespace(lifecycle_test.id_of('stayer-x'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('stayer-x'), 'group', 'crew');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('stayer-x'), 1000, 50);
create temporary table ids on commit drop as
select lifecycle_test.id_of('stayer-x/team') as team, lifecycle_test.id_of('stayer-x/crew') as crew,
       lifecycle_test.id_of('mover-x/infra') as infra;
grant select on ids to lifecycle_app;

select is((select organization_id from lifecycle.organization_move_out_start('mover-x', 'cluster-b')),
          lifecycle_test.id_of('mover-x'), 'the move starts');
-- A pending request into it, as the previous release let one be made while the move ran.
insert into lifecycle.transfer_requests (namespace_id, from_parent_id, to_parent_id, requested_by, expires_at)
select crew, lifecycle_test.id_of('stayer-x'), infra, 1000, now() + interval '1 day' from ids;
set local role lifecycle_app;

select throws_ok($$select lifecycle.namespace_transfer_request((select team from ids), (select infra from ids), 1000)$$,
                 'NS011', 'the target''s organization is moving to another cluster',
                 'a request into the moving organization, by an owner of both sides');
select throws_ok($$select lifecycle.namespace_transfer_accept(
                     (select id from lifecycle.transfer_requests where namespace_id = (select crew from ids)), 1000)$$,
                 'NS011', 'the target''s organization is moving to another cluster',
                 'the pending request, accepted by the target''s owner');
reset role;

select results_eq($$select namespace_id, status from lifecycle.transfer_requests
                     where namespace_id in (select team from ids union all select crew from ids)$$,
                  $$select crew, 'pending'::text from ids$$, 'no request was written, and the pending one is still pending');
select results_eq($$select state, parent_id from lifecycle.namespaces where id in (select team from ids union all select crew from ids) order by id$$,
                  $$values (0::smallint, lifecycle_test.id_of('stayer-x')), (0::smallint, lifecycle_test.id_of('stayer-x'))$$,
                  'both namespaces stay where they were, active');
select is((select count(*) from lifecycle.check_invariants()), 0::bigint, 'no invariant is broken');

select * from finish();
rollback;
