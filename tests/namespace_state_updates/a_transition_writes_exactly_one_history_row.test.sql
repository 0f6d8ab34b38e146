begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/eng'), 'archived', 1001,
  '{"reason": "quarterly cleanup", "correlation_id": "req-17"}');

select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng')),
  1::bigint,
  'one namespace_transition call writes exactly one history row'
);
select results_eq(
  format($$select from_state, to_state, event, actor_id, metadata, source
             from lifecycle.namespace_state_updates where namespace_id = %s$$, lifecycle_test.id_of('acme/eng')),
  $$values (0::smallint, 1::smallint, null::text, 1001::bigint,
            '{"reason": "quarterly cleanup", "correlation_id": "req-17"}'::jsonb, 'api'::text)$$,
  'the row carries from_state, to_state, no event, the actor, the call''s metadata and source api'
);
select is(
  (select created_at from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng')),
  now(),
  'the row is written in the same transaction as the change'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('acme/eng'), 'active', 1001);
select results_eq(
  format($$select from_state, to_state, metadata from lifecycle.namespace_state_updates
            where namespace_id = %s order by id$$, lifecycle_test.id_of('acme/eng')),
  $$values (0::smallint, 1::smallint, '{"reason": "quarterly cleanup", "correlation_id": "req-17"}'::jsonb),
           (1::smallint, 0::smallint, '{}'::jsonb)$$,
  'a second change adds a second row; metadata defaults to an empty object'
);

select * from finish();
rollback;
