-- Authority is the calling role's, attribution the actor's (docs/design.md §4): a worker that
-- requeues a failed hard delete on behalf of the user who started it is allowed even after that
-- user lost the owner role, and the history names the user.
begin;
select plan(3);

select lifecycle_test.create_doomed_tree();
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/doomed'), 'schedule_deletion', 1001);
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme/doomed'), 'deletion_start', 1001);
delete from lifecycle.namespace_members where user_id = 1001;
grant usage on schema tap, lifecycle_test to lifecycle_worker;

set local role lifecycle_worker;
select results_eq(
  format($$select from_state, to_state from lifecycle.namespace_event(%s, 'deletion_failed', 1001)$$,
         lifecycle_test.id_of('acme/doomed')),
  $$values ('deletion_in_progress'::text, 'deletion_scheduled'::text)$$,
  'lifecycle_worker: the failed deletion is requeued for user 1001, who is no longer an owner');
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'restore', 1001)$$, lifecycle_test.id_of('acme/doomed')),
  'NS005', null,
  'lifecycle_worker: outside an in-progress state the actor still needs its access level');
reset role;

select results_eq(
  format($$select actor_id, event from lifecycle.namespace_state_updates where namespace_id = %s order by id desc limit 1$$,
         lifecycle_test.id_of('acme/doomed')),
  $$values (1001::bigint, 'deletion_failed'::text)$$,
  'the history attributes the change to the user');

select * from finish();
rollback;
