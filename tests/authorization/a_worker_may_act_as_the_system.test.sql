begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
-- pgTAP and the test helpers live in their own schemas; the grant ends with the test's rollback.
grant usage on schema tap, lifecycle_test to lifecycle_worker;

set local role lifecycle_worker;
select results_eq(
  format($$select to_state, changed from lifecycle.namespace_transition(%s, 'deletion_scheduled', null)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('deletion_scheduled'::text, true)$$,
  'lifecycle_worker: namespace_transition with actor null works'
);
select results_eq(
  format($$select to_state, changed from lifecycle.namespace_event(%s, 'deletion_start', null)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('deletion_in_progress'::text, true)$$,
  'lifecycle_worker: namespace_event with actor null works'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 0 where id = %s', lifecycle_test.id_of('acme/site')),
  '42501', null,
  'lifecycle_worker: a raw UPDATE of state is still permission denied'
);
reset role;

select results_eq(
  format($$select to_state::int, actor_id, source from lifecycle.namespace_state_updates where namespace_id = %s order by id$$,
         lifecycle_test.id_of('acme/site')),
  $$values (2, null::bigint, 'api'::text), (4, null, 'api')$$,
  'the history rows record the system (actor null) through the API'
);

select * from finish();
rollback;
