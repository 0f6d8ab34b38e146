begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'sunset');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'group', 'legacy');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset/legacy'), 'project', 'reports');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/sunset/legacy/reports'), 'archived', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/sunset'), 'deletion_scheduled', 1001);

select results_eq(
  format($$select state, effective_state, inherited_from_namespace_id, self_or_ancestor_archived,
                  self_or_ancestor_deletion_scheduled, read_only
             from lifecycle.namespace_effective_state(%s)$$, lifecycle_test.id_of('acme/sunset/legacy/reports')),
  $$values ('archived'::text, 'archived'::text, null::bigint, true, true, true)$$,
  'an archived project two levels below a group scheduled for deletion is effectively archived and pending deletion'
);

select lifecycle.effective_states_refresh();
select results_eq(
  format($$select state, effective_state, inherited_from_namespace_id, self_or_ancestor_archived,
                  self_or_ancestor_deletion_scheduled, read_only
             from lifecycle.effective_states where namespace_id = %s$$, lifecycle_test.id_of('acme/sunset/legacy/reports')),
  $$values ('archived'::text, 'archived'::text, null::bigint, true, true, true)$$,
  'lifecycle.effective_states shows both as well'
);

-- The same holds when the deletion is already running.
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/sunset'), 'deletion_in_progress', 1001);
select results_eq(
  format($$select effective_state, self_or_ancestor_deletion_scheduled
             from lifecycle.namespace_effective_state(%s)$$, lifecycle_test.id_of('acme/sunset/legacy/reports')),
  $$values ('archived'::text, true)$$,
  'with the group''s deletion in progress the project is still archived and pending deletion'
);

select * from finish();
rollback;
