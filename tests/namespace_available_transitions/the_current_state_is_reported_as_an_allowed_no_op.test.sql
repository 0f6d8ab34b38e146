begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
update lifecycle.namespaces set state = 6 where id = lifecycle_test.id_of('acme/eng');

select results_eq(
  format($$select to_state from lifecycle.namespace_available_transitions(%s, 1001)$$, lifecycle_test.id_of('acme/eng')),
  $$select name from lifecycle.states order by code$$,
  'every state is reported once, in code order'
);
select results_eq(
  format($$select allowed, error_code, reason from lifecycle.namespace_available_transitions(%s, 1001)
            where to_state = 'maintenance'$$, lifecycle_test.id_of('acme/eng')),
  $$values (true, null::text, 'already in this state (a no-op)'::text)$$,
  'the current state is allowed as a no-op, even for an actor who is no member'
);

select * from finish();
rollback;
