begin;
select plan(3);

-- The grace period is lifecycle.settings.deletion_adjourned_period_days, read at the restore.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001);
update lifecycle.namespaces set deletion_scheduled_at = now() - interval '2 days'
 where id = lifecycle_test.id_of('acme/site');

update lifecycle.settings set deletion_adjourned_period_days = 1;
select is(
  lifecycle_test.transition_outcome(lifecycle_test.id_of('acme/site'), 'active', 1001),
  'NS007',
  'with a grace period of 1 day, a deletion scheduled 2 days ago can no longer be restored by a user'
);
update lifecycle.settings set deletion_adjourned_period_days = 3;
select is(
  lifecycle_test.transition_outcome(lifecycle_test.id_of('acme/site'), 'active', 1001),
  'allowed',
  'with a grace period of 3 days, it can'
);
update lifecycle.namespaces set deletion_scheduled_at = now() - interval '3 days 1 second'
 where id = lifecycle_test.id_of('acme/site');
select is(
  lifecycle_test.transition_outcome(lifecycle_test.id_of('acme/site'), 'active', 1001),
  'NS007',
  'one second past 3 days it cannot'
);

select * from finish();
rollback;
