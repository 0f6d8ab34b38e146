-- A transfer enters transfer_in_progress itself, with its accepted request (lifecycle.states
-- operation_enters, docs/design.md §3.2): neither the application role nor a worker may put a
-- namespace there by hand, not even for an owner or as the system, which would leave a transfer no
-- request finishes (check_invariants: in_progress_without_operation);
-- namespace_available_transitions says the same. The transfer's own accept still starts it, and the rows of lifecycle.states, not a list
-- here, say which states an operation enters: every such state is refused to the application.
begin;
select plan(11);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'project', 'app');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'project', 'kept');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
grant usage on schema tap, lifecycle_test to lifecycle_app, lifecycle_worker;

select ok(exists (select from lifecycle.states where operation_enters),
          'lifecycle.states names a state only its operation enters');

set local role lifecycle_app;
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'transfer_in_progress', 1001)$$, lifecycle_test.id_of('acme/src/kept')),
  'NS005', 'only the transfer itself may move a namespace into transfer_in_progress',
  'lifecycle_app: an owner cannot start a transfer by hand');
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'transfer_start', 1001)$$, lifecycle_test.id_of('acme/src/kept')),
  'NS005', null, 'lifecycle_app: not even with the transfer''s own event');
-- Every state an operation enters, from active (each is in the matrix from there, or refused by it).
select is_empty(
  format($$select s.name from lifecycle.states s
            cross join lateral lifecycle.namespace_available_transitions(%s, 1001) a
           where s.operation_enters and a.to_state = s.name and (a.allowed or a.error_code <> 'NS005')$$,
         lifecycle_test.id_of('acme/src/kept')),
  'lifecycle_app: namespace_available_transitions refuses every state an operation enters with NS005');
reset role;
set local role lifecycle_worker;
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'transfer_in_progress', null)$$, lifecycle_test.id_of('acme/src/kept')),
  'NS005', null, 'lifecycle_worker: not as the system either');
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'transfer_start', 1001)$$, lifecycle_test.id_of('acme/src/kept')),
  'NS005', null, 'lifecycle_worker: nor for an owner');
reset role;
set local role lifecycle_app;
select is(lifecycle.state_name((select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/kept'))),
          'ancestor_inherited', 'the namespace did not move into the state');

select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/app'), lifecycle_test.id_of('acme/dst'), 1001);
select is(lifecycle.state_name((select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/src/app'))),
          'transfer_in_progress', 'lifecycle_app: the transfer''s accept starts it');
select results_eq(
  format($$select outcome, new_full_path from lifecycle.namespace_transfer_execute(%s)$$, lifecycle_test.id_of('acme/src/app')),
  $$values ('completed'::text, 'acme/dst/app'::text)$$,
  'lifecycle_app: and its execute ends it');
reset role;

select is((select status from lifecycle.transfer_requests), 'completed', 'the request is completed');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
