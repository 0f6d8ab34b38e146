begin;
select plan(2);

-- The seven-level tree with mixed own states (tests/helpers.sql), every change through the gate.
select lifecycle_test.create_mixed_tree();
select lifecycle.namespace_event(lifecycle_test.id_of('acme/sunset'), 'restore', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/moving'), 'transfer_done', null);

select is_empty('select * from lifecycle.check_invariants()', 'no violation on a tree changed only through the gate');
select ok((select sum(state_changes) from lifecycle.namespaces) = (select count(*) from lifecycle.namespace_state_updates),
          'the gate counted every state change it recorded');

select * from finish();
rollback;
