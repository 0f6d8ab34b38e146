begin;
select plan(3);

-- Restoring (back to the permanent state the namespace had) clears the deletion stamp; so does
-- deletion_scheduled → archived.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'restore', 1001);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (0::smallint, null::timestamptz, null::bigint)$$,
  'restored to active: no deletion stamp'
);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/shop'), 'schedule_deletion', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/shop'), 'archived', 1001);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/shop')),
  $$values (1::smallint, null::timestamptz, null::bigint)$$,
  'moved from deletion_scheduled to archived: no deletion stamp'
);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'deletion_start', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/site'), 'active', null);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (0::smallint, null::timestamptz, null::bigint)$$,
  'rolled back from deletion_in_progress to active by the system: no deletion stamp'
);

select * from finish();
rollback;
