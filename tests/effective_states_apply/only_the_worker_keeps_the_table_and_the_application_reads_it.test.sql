begin;
select plan(5);

select lifecycle_test.create_mixed_tree();
select lifecycle.effective_states_refresh();
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;

set local role lifecycle_app;
select throws_ok($$select lifecycle.effective_states_apply()$$, '42501', null,
                 'the application role may not apply facts (it could make the table lie)');
select throws_ok($$select lifecycle.effective_states_refresh()$$, '42501', null, 'nor rebuild the table');
select throws_ok($$insert into lifecycle.effective_states values (-1, 'active', 'active', null, false, false, false, 'x')$$,
                 '42501', null, 'nor write it');
select is((select count(*) from lifecycle.effective_states), (select count(*) from lifecycle.namespaces),
          'it reads it: one row per namespace');
reset role;

set local role lifecycle_worker;
select is((select a.written from lifecycle.effective_states_apply() a), -1::bigint,
          'the worker applies what waits (the creations of the tree, and what migration 035 left: a rebuild)');
reset role;

select * from finish();
rollback;
