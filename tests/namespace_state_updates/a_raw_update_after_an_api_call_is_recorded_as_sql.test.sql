begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'one');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'two');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'three');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

-- A successful call, then a raw UPDATE in the same transaction.
select lifecycle.namespace_event(lifecycle_test.id_of('acme/one'), 'archive', 1001, '{"reason": "done"}');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/two');
-- A refused call (1002 is no member), then a raw UPDATE.
select throws_ok(
  format('select * from lifecycle.namespace_event(%s, %L, 1002, %L)', lifecycle_test.id_of('acme/three'), 'archive', '{"reason": "x"}'),
  'NS005'
);
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/three');

select results_eq(
  format($$select namespace_id, event, actor_id, metadata, source from lifecycle.namespace_state_updates
            where namespace_id in (%s, %s, %s) order by id$$,
         lifecycle_test.id_of('acme/one'), lifecycle_test.id_of('acme/two'), lifecycle_test.id_of('acme/three')),
  format($$values (%s::bigint, 'archive'::text, 1001::bigint, '{"reason": "done"}'::jsonb, 'api'::text),
                  (%s, null, null, '{}', 'sql'),
                  (%s, null, null, '{}', 'sql')$$,
         lifecycle_test.id_of('acme/one'), lifecycle_test.id_of('acme/two'), lifecycle_test.id_of('acme/three')),
  'a raw UPDATE after an API call (successful or refused) is not attributed to the call'
);

select * from finish();
rollback;
