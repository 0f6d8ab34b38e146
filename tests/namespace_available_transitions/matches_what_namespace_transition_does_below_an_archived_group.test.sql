begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'old');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/old'), 'project', 'site');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/old');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select results_eq(
  format($$select to_state, allowed, error_code from lifecycle.namespace_available_transitions(%s, 1001)$$,
         lifecycle_test.id_of('acme/old/site')),
  $$values ('ancestor_inherited'::text, true, null::text),
           ('archived', false, 'NS002'),
           ('deletion_scheduled', true, null),
           ('creation_in_progress', false, 'NS001'),
           ('deletion_in_progress', false, 'NS001'),
           ('transfer_in_progress', true, null),
           ('maintenance', true, null)$$,
  'an owner of an active project in an archived group may schedule deletion, transfer and maintain, not archive'
);

-- For every target: a reported refusal is what namespace_transition raises (code and message);
-- a reported allowed transition goes through.
select case
         when a.allowed then
           is(lifecycle_test.transition_outcome(lifecycle_test.id_of('acme/old/site'), a.to_state, 1001), 'allowed',
              format('to %s: reported allowed, and namespace_transition goes through', a.to_state))
         else
           throws_ok(format('select * from lifecycle.namespace_transition(%s, %L, 1001)',
                            lifecycle_test.id_of('acme/old/site'), a.to_state),
                     a.error_code, a.reason,
                     format('to %s: reported %s, and namespace_transition raises it', a.to_state, a.error_code))
       end
  from lifecycle.namespace_available_transitions(lifecycle_test.id_of('acme/old/site'), 1001) a
 order by lifecycle.state_code(a.to_state);

select * from finish();
rollback;
