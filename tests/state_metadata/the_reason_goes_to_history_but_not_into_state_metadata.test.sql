begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/site'), 'deletion_scheduled', 1001,
  '{"reason": "customer asked", "correlation_id": "req-9", "attempt_count": 0}');

select is(
  (select metadata from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/site')),
  '{"reason": "customer asked", "correlation_id": "req-9", "attempt_count": 0}'::jsonb,
  'the history row holds the call''s whole metadata, reason included'
);
select is(
  (select state_metadata ? 'reason' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  false,
  'reason is not copied into state_metadata'
);
select is(
  (select jsonb_build_object('correlation_id', state_metadata -> 'correlation_id', 'attempt_count', state_metadata -> 'attempt_count')
     from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/site')),
  '{"correlation_id": "req-9", "attempt_count": 0}'::jsonb,
  'the call''s other keys are merged into state_metadata'
);

select * from finish();
rollback;
