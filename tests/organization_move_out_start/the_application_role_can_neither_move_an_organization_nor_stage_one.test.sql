begin;
select plan(6);

-- Moving organizations is an operator's (a lifecycle_worker login, cmd/orgmove): the
-- application role may call none of the move's functions, nor write its staging table, nor set
-- the id range; it may read where organizations went.
select lifecycle_test.create_namespace(null, 'organization', 'app-m');
set local role lifecycle_app;
select throws_ok($$select * from lifecycle.organization_move_out_start('app-m', 'cluster-b')$$, '42501', null, 'start');
select throws_ok($$select * from lifecycle.organization_export(1)$$, '42501', null, 'export');
select throws_ok($$select * from lifecycle.organization_move_in(1, 'cluster-a')$$, '42501', null, 'move in');
select throws_ok($$insert into lifecycle.organization_imports values (1, 'header', '{}')$$, '42501', null, 'stage');
select throws_ok($$select * from lifecycle.id_range_set(1, 1000)$$, '42501', null, 'set the id range');
select lives_ok($$select * from lifecycle.organization_moves$$, 'read the moves');
reset role;

select * from finish();
rollback;
