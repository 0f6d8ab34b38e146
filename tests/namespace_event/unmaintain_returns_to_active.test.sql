begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select results_eq(
  format($$select from_state, to_state, effective_state, changed from lifecycle.namespace_event(%s, 'maintain', null)$$,
         lifecycle_test.id_of('acme/eng')),
  $$values ('ancestor_inherited'::text, 'maintenance'::text, 'maintenance'::text, true)$$,
  'maintain moves an active group to maintenance'
);
select results_eq(
  format($$select from_state, to_state, effective_state, changed from lifecycle.namespace_event(%s, 'unmaintain', null)$$,
         lifecycle_test.id_of('acme/eng')),
  $$values ('maintenance'::text, 'ancestor_inherited'::text, 'active'::text, true)$$,
  'unmaintain returns it to active'
);
select is(
  (select state_metadata ? 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  false,
  'back in a permanent state, nothing is preserved any more'
);

select * from finish();
rollback;
