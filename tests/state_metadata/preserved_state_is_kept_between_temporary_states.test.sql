begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/site'), 'archived', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/site'), 'deletion_scheduled', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/site'), 'deletion_in_progress', 1001);
select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  'archived',
  'deletion_scheduled → deletion_in_progress keeps preserved_state archived'
);

update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/site');
select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  'archived',
  'deletion_in_progress → deletion_scheduled (a raw UPDATE) keeps it too'
);
select is(
  (select state_metadata ->> 'previous_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  'deletion_in_progress',
  'while previous_state follows the last change'
);

select * from finish();
rollback;
