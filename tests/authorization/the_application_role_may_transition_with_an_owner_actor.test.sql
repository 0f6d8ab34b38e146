begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);
-- pgTAP and the test helpers live in their own schemas; the grant ends with the test's rollback.
grant usage on schema tap, lifecycle_test to lifecycle_app;

set local role lifecycle_app;
select results_eq(
  format($$select from_state, to_state, effective_state, changed
             from lifecycle.namespace_transition(%s, 'archived', 1001, '{"reason": "done"}')$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values ('ancestor_inherited'::text, 'archived'::text, 'archived'::text, true)$$,
  'lifecycle_app: namespace_transition with an owner as actor archives the project'
);
select results_eq(
  format($$select to_state, changed from lifecycle.namespace_event(%s, 'unarchive', 1001)$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values ('ancestor_inherited'::text, true)$$,
  'lifecycle_app: namespace_event with an owner as actor unarchives it'
);
select results_eq(
  format($$select from_state::int, to_state::int, event, actor_id, source, metadata
             from lifecycle.namespace_state_updates where namespace_id = %s order by id$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (0, 1, null::text, 1001::bigint, 'api'::text, '{"reason": "done"}'::jsonb),
           (1, 0, 'unarchive', 1001, 'api', '{}')$$,
  'lifecycle_app: the history rows name the owner and source api'
);
reset role;

select is(
  (select state_metadata ->> 'last_changed_by_user_id' from lifecycle.namespace_details
    where namespace_id = lifecycle_test.id_of('acme/eng/site')),
  '1001',
  'state_metadata names the owner as the last to change it'
);

select * from finish();
rollback;
