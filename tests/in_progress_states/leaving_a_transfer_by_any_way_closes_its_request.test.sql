-- Any way out of transfer_in_progress closes its accepted request (docs/design.md §5): a worker's
-- event, a worker's transition to another state, or a superuser's raw UPDATE. The request is
-- failed with last_error, and the namespace may be transferred again (no NS009 for ever).
begin;
select plan(7);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'a');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'b');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
grant usage on schema tap, lifecycle_test to lifecycle_worker;

select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/a'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/b'), lifecycle_test.id_of('acme/dst'), 1001);

set local role lifecycle_worker;
select results_eq(
  format($$select to_state from lifecycle.namespace_transition(%s, 'archived', null)$$, lifecycle_test.id_of('acme/a')),
  $$values ('archived'::text)$$, 'lifecycle_worker: a transfer may be ended by hand into archived');
reset role;
select results_eq(
  format($$select status, last_error from lifecycle.transfer_requests where namespace_id = %s$$, lifecycle_test.id_of('acme/a')),
  $$values ('failed'::text, 'the transfer ended without its move: the namespace went to archived (a direct change)'::text)$$,
  'its request is failed, saying why');

update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('acme/b');
select results_eq(
  format($$select status from lifecycle.transfer_requests where namespace_id = %s$$, lifecycle_test.id_of('acme/b')),
  $$values ('failed'::text)$$, 'a raw UPDATE out of the transfer fails the request too');

select is_empty($$select * from lifecycle.check_invariants()$$, 'no accepted request is left without its transfer');
select results_eq(
  $$select outcome from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/b'))$$,
  $$values ('noop'::text)$$, 'execute finds nothing to move');
select lives_ok(
  $$select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/b'), lifecycle_test.id_of('acme/dst'), 1001)$$,
  'the namespace may be offered again');
select is((select status from lifecycle.transfer_requests where namespace_id = lifecycle_test.id_of('acme/b') order by id desc limit 1),
          'accepted', 'and the new request is accepted');

select * from finish();
rollback;
