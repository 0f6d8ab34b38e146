begin;
select plan(13);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

-- Direct writes, as a superuser.
select throws_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$, doc, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid state_metadata',
  format('a direct write of %s is NS010', doc)
)
  from (values ('{"attempt_count": "x"}'),
               ('{"attempt_count": -1}'),
               ('{"attempt_count": 1.5}'),
               ('{"progress": {"done": -1, "total": 1}}'),
               ('{"progress": {"done": 1}}'),
               ('{"progress": {"done": 1, "total": 2, "eta": 3}}'),
               ('{"previous_state": "gone"}'),
               ('{"last_updated_at": "yesterday"}'),
               ('{"last_changed_by_user_id": "alice"}'),
               ('{"last_error": "' || repeat('e', 2001) || '"}')) as t(doc);

-- The same checks on the metadata argument of the API.
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, '{"attempt_count": "x"}')$$, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid metadata',
  'namespace_transition with attempt_count "x" is NS010'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, '{"progress": {"done": -1, "total": 1}}')$$, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid metadata',
  'namespace_transition with a negative progress.done is NS010'
);
select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, 'archive', null, '{"progress": {"done": 1}}')$$, lifecycle_test.id_of('acme/eng')),
  'NS010', 'invalid metadata',
  'namespace_event with progress missing total is NS010'
);

select * from finish();
rollback;
