begin;
select plan(3);

-- The stamp belongs to the scheduling: deletion_start (deletion_in_progress) and deletion_failed
-- (requeued as deletion_scheduled), even by another actor, keep the original time and actor.
-- (The schedule is dated back a day, so that a new stamp would show.)
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50), (lifecycle_test.id_of('acme'), 1003, 50);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001);
update lifecycle.namespaces set deletion_scheduled_at = now() - interval '1 day'
 where id = lifecycle_test.id_of('acme/site');

select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'deletion_start', null);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (4::smallint, now() - interval '1 day', 1001::bigint)$$,
  'deletion_in_progress keeps the scheduling time and actor'
);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'deletion_failed', 1003);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (2::smallint, now() - interval '1 day', 1001::bigint)$$,
  'requeued by deletion_failed (by another owner), it keeps them as well'
);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'deletion_start', null);
select results_eq(
  format($$select state, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces where id = %s$$,
         lifecycle_test.id_of('acme/site')),
  $$values (4::smallint, now() - interval '1 day', 1001::bigint)$$,
  'and a second attempt still keeps them'
);

select * from finish();
rollback;
