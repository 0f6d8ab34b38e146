begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'one');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'two');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'three');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/one'), 'archived', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/one'), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/one'), 'archived', 1001);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/two'), 'maintenance', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/two'), 'active', 1001);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/three'), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/three'), 'deletion_in_progress', 1001);
update lifecycle.namespaces set state = 0 where id = lifecycle_test.id_of('acme/three');

select is(
  (select state_metadata ? 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/one')),
  false,
  'deletion_scheduled → archived drops preserved_state'
);
select is(
  (select state_metadata ? 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/two')),
  false,
  'maintenance → active drops preserved_state'
);
select is(
  (select state_metadata ? 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/three')),
  false,
  'deletion_in_progress → active (a raw UPDATE) drops preserved_state'
);

select * from finish();
rollback;
