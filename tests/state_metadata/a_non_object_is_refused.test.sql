begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, %L)$$, lifecycle_test.id_of('acme/eng'), doc),
  'NS010', 'invalid metadata',
  format('namespace_transition with metadata %s is NS010', doc)
)
  from (values ('[]'), ('"archived"'), ('42'), ('null')) as t(doc);

-- The validation trigger runs before the table's CHECK (jsonb_typeof = 'object'), so a direct
-- write is refused with NS010 as well.
select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$, doc, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  format('a direct write of %s is NS010', doc)
)
  from (values ('[]'), ('"x"')) as t(doc);

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
