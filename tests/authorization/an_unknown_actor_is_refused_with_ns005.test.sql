begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', 999999)$$, lifecycle_test.id_of('acme/site')),
  'NS005', 'user 999999 may not move this namespace to archived',
  'an actor who is no member anywhere is refused with NS005'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'maintain', 999999)$$, lifecycle_test.id_of('acme/site')),
  'NS005', null,
  'also through an event'
);
select is(
  (select state from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  0::smallint,
  'the refused calls changed nothing'
);

select * from finish();
rollback;
