begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select is(
  (select state_metadata from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  jsonb_build_object('last_updated_at', now(), 'last_changed_by_user_id', null),
  'a new namespace starts with last_updated_at and no last_changed_by_user_id'
);

-- Make the stored time stale, so the next change visibly rewrites it.
update lifecycle.namespace_details set state_metadata = state_metadata || '{"last_updated_at": "2000-01-01T00:00:00Z"}'
 where namespace_id = lifecycle_test.id_of('acme/eng');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/eng'), 'archived', 1001);
select is(
  (select state_metadata from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  jsonb_build_object('last_updated_at', now(), 'last_changed_by_user_id', 1001, 'previous_state', 'ancestor_inherited'),
  'namespace_transition sets last_updated_at, last_changed_by_user_id and previous_state'
);

update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/eng');
select is(
  (select state_metadata - 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  jsonb_build_object('last_updated_at', now(), 'last_changed_by_user_id', null, 'previous_state', 'archived'),
  'a raw UPDATE keeps them too: the system (null) changed it, from archived'
);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/eng'), 'deletion_start', 1001);
select is(
  (select state_metadata ->> 'previous_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng')),
  'deletion_scheduled',
  'previous_state follows every change'
);

select * from finish();
rollback;
