begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme/site'), 1001, 50);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'schedule_deletion', 1001, '{"reason": "unused"}');

select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/site')),
  1::bigint,
  'one namespace_event call writes exactly one history row'
);
select results_eq(
  format($$select from_state, to_state, event, actor_id, metadata, source
             from lifecycle.namespace_state_updates where namespace_id = %s$$, lifecycle_test.id_of('acme/site')),
  $$values (0::smallint, 2::smallint, 'schedule_deletion'::text, 1001::bigint, '{"reason": "unused"}'::jsonb, 'api'::text)$$,
  'the row names the event, the actor, the call''s metadata and source api'
);

select lifecycle.namespace_event(lifecycle_test.id_of('acme/site'), 'restore', 1001);
select results_eq(
  format($$select from_state, to_state, event from lifecycle.namespace_state_updates
            where namespace_id = %s order by id$$, lifecycle_test.id_of('acme/site')),
  $$values (0::smallint, 2::smallint, 'schedule_deletion'::text), (2::smallint, 0::smallint, 'restore'::text)$$,
  'each event adds its own row'
);

select * from finish();
rollback;
