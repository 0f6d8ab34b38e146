begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'one');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'two');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'three');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'four');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'five');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/one'), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/two'), 'archived', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/two'), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/three'), 'maintenance', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/four'), 'archived', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/four'), 'transfer_in_progress', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/five'), 'archived', 1001);

select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/one')),
  'ancestor_inherited',
  'active → deletion_scheduled preserves ancestor_inherited'
);
select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/two')),
  'archived',
  'archived → deletion_scheduled preserves archived'
);
select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/three')),
  'ancestor_inherited',
  'active → maintenance preserves ancestor_inherited'
);
select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/four')),
  'archived',
  'archived → transfer_in_progress preserves archived'
);
select is(
  (select state_metadata ? 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/five')),
  false,
  'a change between permanent states (active → archived) preserves nothing'
);

select * from finish();
rollback;
