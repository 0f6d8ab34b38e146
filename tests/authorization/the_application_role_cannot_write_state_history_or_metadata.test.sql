begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
-- pgTAP and the test helpers live in their own schemas; the grant ends with the test's rollback.
grant usage on schema tap, lifecycle_test to lifecycle_app;

set local role lifecycle_app;
select throws_ok(
  format('update lifecycle.namespaces set state = 1 where id = %s', lifecycle_test.id_of('acme/site')),
  '42501', null,
  'lifecycle_app: a raw UPDATE of state is permission denied'
);
select throws_ok(
  format('update lifecycle.namespaces set state = state where id = %s', lifecycle_test.id_of('acme/site')),
  '42501', null,
  'lifecycle_app: even a same-state UPDATE of state is permission denied'
);
select throws_ok(
  format($$insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, source)
           values (%s, 0, 1, 'sql')$$, lifecycle_test.id_of('acme/site')),
  '42501', null,
  'lifecycle_app: inserting history is permission denied'
);
select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = '{}' where namespace_id = %s$$, lifecycle_test.id_of('acme/site')),
  '42501', null,
  'lifecycle_app: writing state_metadata is permission denied'
);
select lives_ok(
  format($$update lifecycle.namespaces set name = 'Site' where id = %s$$, lifecycle_test.id_of('acme/site')),
  'lifecycle_app: renaming (name) is allowed'
);
reset role;

select results_eq(
  format($$select state::int, (select count(*)::int from lifecycle.namespace_state_updates u where u.namespace_id = n.id)
             from lifecycle.namespaces n where n.id = %s$$, lifecycle_test.id_of('acme/site')),
  $$values (0, 0)$$,
  'state and history are untouched'
);

select * from finish();
rollback;
