begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

-- The call passes every key the gate keeps, with other values than the gate's.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001,
  '{"last_updated_at": "2000-01-01T00:00:00Z", "last_changed_by_user_id": 7,
    "previous_state": "maintenance", "preserved_state": "archived"}');
select is(
  (select state_metadata - 'last_updated_at' || jsonb_build_object('fresh', (state_metadata ->> 'last_updated_at')::timestamptz = now())
     from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  '{"fresh": true, "last_changed_by_user_id": 1001, "previous_state": "ancestor_inherited",
    "preserved_state": "ancestor_inherited"}'::jsonb,
  'leaving a permanent state, the gate''s values win over the call''s'
);

-- Between temporary states preserved_state is kept: the call cannot replace it either.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'deletion_start', 1001, '{"preserved_state": "archived"}');
select is(
  (select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  'ancestor_inherited',
  'deletion_scheduled → deletion_in_progress keeps preserved_state although the call passes another one'
);
select is(
  (select state_metadata ->> 'previous_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  'deletion_scheduled',
  'previous_state is the gate''s'
);

-- So the project, active before it was scheduled, is restored to active.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'deletion_failed', 1001);
select is(
  (select to_state from lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'restore', 1001)),
  'ancestor_inherited',
  'restore returns the project to active, the state it had before scheduling'
);

select * from finish();
rollback;
