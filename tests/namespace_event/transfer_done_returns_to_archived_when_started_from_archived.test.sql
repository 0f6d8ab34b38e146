begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'old');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'plain');

select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'archive', null);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/old'), 'transfer_start', null);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'transfer_done', null)$$,
         lifecycle_test.id_of('acme/old')),
  $$values ('transfer_in_progress'::text, 'archived'::text, true)$$,
  'transfer_done returns a transfer started from archived to archived'
);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/plain'), 'transfer_start', null);
select results_eq(
  format($$select from_state, to_state, changed from lifecycle.namespace_event(%s, 'transfer_done', null)$$,
         lifecycle_test.id_of('acme/plain')),
  $$values ('transfer_in_progress'::text, 'ancestor_inherited'::text, true)$$,
  'transfer_done returns a transfer started from active to active'
);
select results_eq(
  $$select lifecycle.namespace_full_path(id), state::int from lifecycle.namespaces where parent_id is not null order by 1$$,
  $$values ('acme/old'::text, 1), ('acme/plain', 0)$$,
  'the stored states agree'
);

select * from finish();
rollback;
