-- A transfer owns transfer_in_progress (docs/design.md §4): the application role may not move the
-- namespace out of it by hand, not even for an owner, which would leave its request accepted for
-- ever; the transfer's own code path (namespace_transfer_execute), which any client may call, ends
-- it.
begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'project', 'app');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
grant usage on schema tap, lifecycle_test to lifecycle_app;

set local role lifecycle_app;
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/app'), lifecycle_test.id_of('acme/dst'), 1001);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'active', 1001)$$, lifecycle_test.id_of('acme/src/app')),
  'NS005', 'only the transfer itself or a worker may move a namespace out of transfer_in_progress',
  'lifecycle_app: an owner cannot end a transfer by hand');
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'transfer_done', 1001)$$, lifecycle_test.id_of('acme/src/app')),
  'NS005', null, 'lifecycle_app: not even with the transfer''s own event');
select is((select status from lifecycle.transfer_requests), 'accepted', 'the request is still accepted');
select results_eq(
  format($$select outcome, new_full_path from lifecycle.namespace_transfer_execute(%s)$$, lifecycle_test.id_of('acme/src/app')),
  $$values ('completed'::text, 'acme/dst/app'::text)$$,
  'lifecycle_app: the transfer''s own execute ends it');
reset role;

select is((select status from lifecycle.transfer_requests), 'completed', 'and completes the request');
select is_empty($$select * from lifecycle.check_invariants()$$, 'the tree is consistent');

select * from finish();
rollback;
