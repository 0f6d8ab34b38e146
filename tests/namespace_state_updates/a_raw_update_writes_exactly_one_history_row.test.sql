begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/eng');

select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng')),
  1::bigint,
  'a raw UPDATE of state writes exactly one history row'
);
select results_eq(
  format($$select from_state, to_state, event, actor_id, metadata, source
             from lifecycle.namespace_state_updates where namespace_id = %s$$, lifecycle_test.id_of('acme/eng')),
  $$values (0::smallint, 1::smallint, null::text, null::bigint, '{}'::jsonb, 'sql'::text)$$,
  'the row has source sql, no actor (the system), no event and empty metadata'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme')),
  0::bigint,
  'the unchanged parent gets no row'
);

select * from finish();
rollback;
