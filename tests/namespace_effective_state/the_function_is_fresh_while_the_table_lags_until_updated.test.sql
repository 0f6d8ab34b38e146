begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.effective_states_refresh();

update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/eng');

select is(
  (select effective_state from lifecycle.namespace_effective_state(lifecycle_test.id_of('acme/eng/site'))),
  'archived',
  'namespace_effective_state sees the change at once'
);
select is(
  (select effective_state from lifecycle.effective_states where namespace_id = lifecycle_test.id_of('acme/eng/site')),
  'active',
  'lifecycle.effective_states still shows the state of its last update'
);
select lifecycle.effective_states_refresh();
select results_eq(
  format($$select effective_state, inherited_from_namespace_id from lifecycle.effective_states where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng/site')),
  format($$values ('archived'::text, %s::bigint)$$, lifecycle_test.id_of('acme/eng')),
  'after a rebuild it shows it'
);
select is(
  (select effective_state from lifecycle.namespace_transition(lifecycle_test.id_of('acme/eng'), 'active', null)),
  'active',
  'namespace_transition returns the fresh effective state'
);

select * from finish();
rollback;
