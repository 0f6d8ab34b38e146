begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');

select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'delete', null)$$, lifecycle_test.id_of('acme')),
  'NS010', 'unknown event ''delete''',
  'an unknown event is NS010'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'ARCHIVE', null)$$, lifecycle_test.id_of('acme')),
  'NS010', 'unknown event ''ARCHIVE''',
  'event names are exact: ARCHIVE is unknown'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'archived', null)$$, lifecycle_test.id_of('acme')),
  'NS010', 'unknown event ''archived''',
  'a state name is not an event'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, null, null)$$, lifecycle_test.id_of('acme')),
  'NS010', null,
  'a null event is NS010'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme')),
  0::smallint,
  'the refused events changed nothing'
);

select * from finish();
rollback;
