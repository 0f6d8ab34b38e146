begin;
select plan(7);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
delete from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/ops');

select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = '{"color": "red"}' where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  'a direct UPDATE (as a superuser) with an unknown key is NS010'
);
select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = state_metadata || '{"color": "red"}' where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  'adding an unknown key to valid metadata is NS010'
);
select throws_ok(
  format($$insert into lifecycle.namespace_details (namespace_id, state_metadata) values (%s, '{"color": "red"}')$$,
         lifecycle_test.id_of('acme/ops')),
  'NS010', 'invalid state_metadata',
  'a direct INSERT (as a superuser) with an unknown key is NS010'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, '{"color": "red"}')$$,
         lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid metadata',
  'namespace_transition with an unknown metadata key is NS010'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'archive', null, '{"color": "red"}')$$,
         lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid metadata',
  'namespace_event with an unknown metadata key is NS010'
);

select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng')),
  0::smallint,
  'the refused calls changed no state'
);
select is(
  (select state_metadata ? 'color' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  false,
  'the unknown key is nowhere in state_metadata'
);

select * from finish();
rollback;
