begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
-- pgTAP and the test helpers live in their own schemas; the grant ends with the test's rollback.
grant usage on schema tap, lifecycle_test to lifecycle_app;

set local role lifecycle_app;
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null)$$, lifecycle_test.id_of('acme/site')),
  'NS005', 'only the system may move this namespace to archived without an actor',
  'lifecycle_app: namespace_transition with actor null is NS005'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'archive', null)$$, lifecycle_test.id_of('acme/site')),
  'NS005', 'only the system may move this namespace to archived without an actor',
  'lifecycle_app: namespace_event with actor null is NS005'
);
select is(
  (select error_code from lifecycle.namespace_available_transitions(lifecycle_test.id_of('acme/site'), null)
    where to_state = 'archived'),
  'NS005',
  'lifecycle_app: namespace_available_transitions reports NS005 for actor null'
);
reset role;

select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  0::smallint,
  'the refused calls changed nothing'
);
select is(
  (select error_code from lifecycle.namespace_available_transitions(lifecycle_test.id_of('acme/site'), null)
    where to_state = 'archived'),
  null,
  'a superuser may act as the system'
);

select * from finish();
rollback;
