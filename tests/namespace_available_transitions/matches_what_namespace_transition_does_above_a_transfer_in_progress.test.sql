begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/web'), 'project', 'app');
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/eng/web/app');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme/eng'), 1001, 50);

select results_eq(
  format($$select to_state, allowed, error_code from lifecycle.namespace_available_transitions(%s, 1001)$$,
         lifecycle_test.id_of('acme/eng')),
  $$values ('ancestor_inherited'::text, true, null::text),
           ('archived', false, 'NS003'),
           ('deletion_scheduled', false, 'NS003'),
           ('creation_in_progress', false, 'NS001'),
           ('deletion_in_progress', false, 'NS001'),
           ('transfer_in_progress', false, 'NS003'),
           ('maintenance', false, 'NS003')$$,
  'above a transfer in progress two levels down, every change of the group is refused'
);

-- For every target: a reported refusal is what namespace_transition raises (code and message);
-- a reported allowed transition goes through.
select case
         when a.allowed then
           is(lifecycle_test.transition_outcome(lifecycle_test.id_of('acme/eng'), a.to_state, 1001), 'allowed',
              format('to %s: reported allowed, and namespace_transition goes through', a.to_state))
         else
           throws_ok(format('select * from lifecycle.namespace_transition(%s, %L, 1001)',
                            lifecycle_test.id_of('acme/eng'), a.to_state),
                     a.error_code, a.reason,
                     format('to %s: reported %s, and namespace_transition raises it', a.to_state, a.error_code))
       end
  from lifecycle.namespace_available_transitions(lifecycle_test.id_of('acme/eng'), 1001) a
 order by lifecycle.state_code(a.to_state);

select * from finish();
rollback;
