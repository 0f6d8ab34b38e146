begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'one');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'two');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'three');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'four');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/four');

-- Three rows change, acme/four is archived already: the statement updates four rows.
update lifecycle.namespaces set state = 1 where parent_id = lifecycle_test.id_of('acme');

select results_eq(
  format($$select namespace_id, from_state::int, to_state::int, source
             from lifecycle.namespace_state_updates where namespace_id in (%s, %s, %s) order by namespace_id$$,
         lifecycle_test.id_of('acme/one'), lifecycle_test.id_of('acme/two'), lifecycle_test.id_of('acme/three')),
  format($$values (%s::bigint, 0, 1, 'sql'::text), (%s, 0, 1, 'sql'), (%s, 0, 1, 'sql')$$,
         lifecycle_test.id_of('acme/one'), lifecycle_test.id_of('acme/two'), lifecycle_test.id_of('acme/three')),
  'each changed row of a multi-row UPDATE gets exactly one history row'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/four')),
  1::bigint,
  'the row already in the target state gets no second row'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates),
  4::bigint,
  'four changes in all, four history rows in all'
);

select * from finish();
rollback;
