begin;
select plan(4);

-- Scheduling a deletion stamps lifecycle.namespaces.deletion_scheduled_at with the time and
-- deletion_scheduled_by with the actor (null for the system); the sweeper reads them later.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'wiki');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select results_eq(
  format($$select deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (null::timestamptz, null::bigint)$$,
  'a live namespace has no deletion stamp'
);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001);
select results_eq(
  format($$select deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (now(), 1001::bigint)$$,
  'scheduled by owner 1001: stamped with now() and 1001'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/shop'), 'deletion_scheduled', null);
select results_eq(
  format($$select deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/shop')),
  $$values (now(), null::bigint)$$,
  'scheduled by the system: stamped with now() and no actor'
);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/wiki'), 'archive', 1001);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/wiki'), 'schedule_deletion', 1001);
select results_eq(
  format($$select deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/wiki')),
  $$values (now(), 1001::bigint)$$,
  'scheduled from archived: stamped the same way'
);

select * from finish();
rollback;
