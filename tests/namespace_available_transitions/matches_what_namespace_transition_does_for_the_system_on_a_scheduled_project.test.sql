begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'old');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/old'), 'project', 'site');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/old');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/old/site');

select results_eq(
  format($$select to_state, allowed, error_code from lifecycle.namespace_available_transitions(%s, null)$$,
         lifecycle_test.id_of('acme/old/site')),
  $$values ('ancestor_inherited'::text, true, null::text),
           ('archived', false, 'NS002'),
           ('deletion_scheduled', true, null),
           ('creation_in_progress', false, 'NS001'),
           ('deletion_in_progress', true, null),
           ('transfer_in_progress', false, 'NS001'),
           ('maintenance', false, 'NS001')$$,
  'for the system, a scheduled project in an archived group may be restored or deleted, not archived'
);

-- For every target: a reported refusal is what namespace_transition raises (code and message);
-- a reported allowed transition goes through.
select case
         when a.allowed then
           is(lifecycle_test.transition_outcome(lifecycle_test.id_of('acme/old/site'), a.to_state, null), 'allowed',
              format('to %s: reported allowed, and namespace_transition goes through', a.to_state))
         else
           throws_ok(format('select * from lifecycle.namespace_transition(%s, %L, null)',
                            lifecycle_test.id_of('acme/old/site'), a.to_state),
                     a.error_code, a.reason,
                     format('to %s: reported %s, and namespace_transition raises it', a.to_state, a.error_code))
       end
  from lifecycle.namespace_available_transitions(lifecycle_test.id_of('acme/old/site'), null) a
 order by lifecycle.state_code(a.to_state);

select * from finish();
rollback;
