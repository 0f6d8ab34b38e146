begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select lives_ok(
  format($$update lifecycle.namespace_details set state_metadata = %L where namespace_id = %s$$,
         '{"last_updated_at": "2026-01-02T03:04:05.123+00:00", "last_changed_by_user_id": null,
           "inherited_from_namespace_id": 7, "last_error": null, "preserved_state": "archived",
           "previous_state": "ancestor_inherited", "progress": {"done": 0, "total": 10},
           "attempt_count": 2, "correlation_id": "req-1", "reason": "why"}',
         lifecycle_test.id_of('acme/eng')),
  'a document using every known key with its declared type is accepted'
);
select lives_ok(
  format($$update lifecycle.namespace_details set state_metadata = '{}' where namespace_id = %s$$, lifecycle_test.id_of('acme/eng')),
  'an empty object is accepted'
);
select lives_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', null, '{"progress": {"done": 3, "total": 3}, "attempt_count": 0}')$$,
         lifecycle_test.id_of('acme/eng')),
  'namespace_transition accepts valid metadata'
);

select * from finish();
rollback;
