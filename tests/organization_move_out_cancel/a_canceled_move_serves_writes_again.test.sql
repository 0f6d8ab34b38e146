begin;
select plan(5);

-- organization_move_out_cancel ends a move that has not finished (the target did not commit the
-- organization): the mark goes and writes are served again. An organization moved in earlier
-- gets back its record of where it came from. Nothing to cancel: false.
select lifecycle_test.create_movable_organization('canceled');
insert into lifecycle.organization_moves (organization_id, path, direction, peer, started_at, finished_at)
values (lifecycle_test.id_of('canceled'), 'canceled', 'in', 'cluster-z', now() - interval '1 day', now() - interval '1 day');
select lifecycle.organization_move_out_start('canceled', 'cluster-b');
select throws_ok($$select lifecycle.namespace_event(lifecycle_test.id_of('canceled/platform/web'), 'archive', 1000)$$, 'NS011',
                 'organization is moving to another cluster', 'moving, writes are refused');
select is(lifecycle.organization_move_out_cancel('canceled'), true, 'the move is canceled');
select lives_ok($$select lifecycle.namespace_event(lifecycle_test.id_of('canceled/platform/web'), 'archive', 1000)$$, 'writes are served again');
select results_eq($$select direction, peer from lifecycle.organization_moves where organization_id = lifecycle_test.id_of('canceled')$$,
                  $$values ('in'::text, 'cluster-z'::text)$$, 'where it came from is kept');
select is(lifecycle.organization_move_out_cancel('canceled'), false, 'nothing left to cancel');

select * from finish();
rollback;
