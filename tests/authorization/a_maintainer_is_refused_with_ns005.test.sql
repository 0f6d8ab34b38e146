begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1002, 40), (lifecycle_test.id_of('acme/eng/site'), 1002, 40);

select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', 1002)$$, lifecycle_test.id_of('acme/eng/site')),
  'NS005', 'user 1002 may not move this namespace to archived',
  'a maintainer (40) may not archive: the default policy requires an owner (50)'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'schedule_deletion', 1002)$$, lifecycle_test.id_of('acme/eng/site')),
  'NS005', 'user 1002 may not move this namespace to deletion_scheduled',
  'nor schedule its deletion through an event'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')),
  0::smallint,
  'the refused calls changed nothing'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng/site')),
  0::bigint,
  'the refused calls wrote no history'
);

select * from finish();
rollback;
