begin;
select plan(4);

-- The API tells the gate that it locked a row's path already (path_locked in lifecycle.change), so the gate
-- does not lock it again, for the one UPDATE the call makes. The hint must be gone whenever the
-- call returns, refused or not: a raw UPDATE later in the transaction, after a move of the row,
-- would otherwise skip locking its new ancestors.

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', 'o'), 'group', 'g'), 'project', 'p');

select lifecycle.namespace_transition(lifecycle_test.id_of('o/g/p'), 'archived', null);
select is(coalesce(current_setting('lifecycle.change', true), ''), '', 'no hint after a change');

select lifecycle.namespace_transition(lifecycle_test.id_of('o/g/p'), 'archived', null);
select is(coalesce(current_setting('lifecycle.change', true), ''), '', 'none after a no-op');

select lifecycle.namespace_transition(lifecycle_test.id_of('o/g/p'), 'active', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('o/g'), 'deletion_scheduled', null);
select throws_ok(
  format('select lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('o/g/p'), 'archived'),
  'NS002', null, 'archiving below a group scheduled for deletion is refused by the gate'
);
select is(coalesce(current_setting('lifecycle.change', true), ''), '', 'none after a refusal');

select * from finish();
rollback;
