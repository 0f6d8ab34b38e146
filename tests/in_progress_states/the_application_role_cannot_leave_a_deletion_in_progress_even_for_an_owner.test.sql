-- A hard delete owns deletion_in_progress (docs/design.md §4): between two of its batches, the
-- application role may not move the namespace anywhere, not even for an owner, so no subtree is
-- left half deleted and half live again. available_transitions tells the same.
begin;
select plan(8);

select lifecycle_test.create_doomed_tree();
grant usage on schema tap, lifecycle_test to lifecycle_app;
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/doomed'), 'schedule_deletion', 1001);
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/doomed'), 'deletion_start', 1001);
-- One batch of the hard delete: part of the subtree is gone.
select * from lifecycle.namespace_hard_delete(lifecycle_test.id_of('acme/doomed'), 5);

set local role lifecycle_app;
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'active', 1001)$$, lifecycle_test.id_of('acme/doomed')),
  'NS005', 'only the hard delete itself or a worker may move a namespace out of deletion_in_progress',
  'lifecycle_app: an owner cannot make a half-deleted namespace active again');
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', 1001)$$, lifecycle_test.id_of('acme/doomed')),
  'NS005', null, 'lifecycle_app: nor archive it');
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'deletion_scheduled', 1001)$$, lifecycle_test.id_of('acme/doomed')),
  'NS005', null, 'lifecycle_app: nor requeue it');
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'deletion_failed', 1001)$$, lifecycle_test.id_of('acme/doomed')),
  'NS005', null, 'lifecycle_app: nor report the deletion as failed');
select results_eq(
  format($$select to_state, allowed, error_code from lifecycle.namespace_available_transitions(%s, 1001)
            where to_state in ('ancestor_inherited', 'archived', 'deletion_scheduled') order by to_state$$,
         lifecycle_test.id_of('acme/doomed')),
  $$values ('ancestor_inherited'::text, false, 'NS005'::text), ('archived', false, 'NS005'), ('deletion_scheduled', false, 'NS005')$$,
  'lifecycle_app: available_transitions reports the same refusals');
-- A client cannot claim to be the operation by setting its context itself.
set local lifecycle.operation = 'hard_delete';
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'active', 1001)$$, lifecycle_test.id_of('acme/doomed')),
  'NS005', null, 'lifecycle_app: setting lifecycle.operation by hand changes nothing');
reset role;

select is((select state::int from lifecycle.namespaces where id = lifecycle_test.id_of('acme/doomed')), 4,
          'the namespace is still deletion_in_progress');
select is_empty($$select * from lifecycle.check_invariants()$$, 'and the tree is consistent');

select * from finish();
rollback;
