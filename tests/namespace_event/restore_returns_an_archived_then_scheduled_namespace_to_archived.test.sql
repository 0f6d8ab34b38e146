begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'archive', 1001);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001);

select results_eq(
  format($$select from_state, to_state, effective_state, changed from lifecycle.namespace_event(%s, 'restore', 1001)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('deletion_scheduled'::text, 'archived'::text, 'archived'::text, true)$$,
  'restore of an archived-then-scheduled project returns it to archived'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  1::smallint,
  'the stored state is archived'
);
select results_eq(
  format($$select from_state::int, to_state::int, event from lifecycle.namespace_state_updates
            where namespace_id = %s order by id desc limit 1$$, lifecycle_test.id_of('acme/site')),
  $$values (2, 1, 'restore'::text)$$,
  'the history row records deletion_scheduled → archived by restore'
);
select is(
  (select state_metadata ? 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  false,
  'back in a permanent state, nothing is preserved any more'
);

select * from finish();
rollback;
