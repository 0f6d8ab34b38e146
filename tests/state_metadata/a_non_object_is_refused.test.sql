begin;
select plan(10);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, %L)$$, lifecycle_test.id_of('acme/eng'), doc),
  'NS010', 'invalid metadata',
  format('namespace_transition with metadata %s is NS010', doc)
)
  from (values ('[]'), ('"archived"'), ('42'), ('null')) as t(doc);

-- A direct write is refused by the validation trigger (since 058 the only place that says it:
-- no CHECK constraint on the table).
select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$, doc, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  format('a direct write of %s is NS010', doc)
)
  from (values ('[]'), ('"x"')) as t(doc);

-- And when the write claims to be the state record's own UPDATE (lifecycle.details_record), whose
-- keys the trigger trusts: only an object is trusted.
select set_config('lifecycle.details_record', lifecycle_test.id_of('acme/eng')::text, true);
select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$, doc, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  format('a write of %s as the record''s is NS010', doc)
)
  from (values ('[]'), ('"x"')) as t(doc);
select set_config('lifecycle.details_record', '', true);

select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng')),
  0::smallint,
  'the refused calls changed no state'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng')),
  0::bigint,
  'the refused calls wrote no history'
);

select * from finish();
rollback;
