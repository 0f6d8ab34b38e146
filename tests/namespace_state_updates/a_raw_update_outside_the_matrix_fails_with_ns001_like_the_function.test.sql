begin;
select plan(8);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
update lifecycle.namespaces set state = 6 where id = lifecycle_test.id_of('acme/ops');

-- active → deletion_in_progress is not in the matrix.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme/eng'), 'deletion_in_progress'),
  'NS001', 'cannot change namespace state from ancestor_inherited to deletion_in_progress',
  'namespace_transition active → deletion_in_progress is NS001'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 4 where id = %s', lifecycle_test.id_of('acme/eng')),
  'NS001', 'cannot change namespace state from ancestor_inherited to deletion_in_progress',
  'a raw UPDATE active → deletion_in_progress is NS001 with the same message'
);
-- Nothing ever goes to creation_in_progress.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme/eng'), 'creation_in_progress'),
  'NS001', null, 'namespace_transition active → creation_in_progress is NS001'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 3 where id = %s', lifecycle_test.id_of('acme/eng')),
  'NS001', null, 'a raw UPDATE active → creation_in_progress is NS001'
);
-- maintenance → archived is not in the matrix.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme/ops'), 'archived'),
  'NS001', 'cannot change namespace state from maintenance to archived',
  'namespace_transition maintenance → archived is NS001'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 1 where id = %s', lifecycle_test.id_of('acme/ops')),
  'NS001', 'cannot change namespace state from maintenance to archived',
  'a raw UPDATE maintenance → archived is NS001 with the same message'
);

select results_eq(
  $$select path, state::int from lifecycle.namespaces order by path$$,
  $$values ('acme'::text, 0), ('eng', 0), ('ops', 6)$$,
  'the refused writes changed no state'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates
    where namespace_id in (lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/ops')) and to_state <> 6),
  0::bigint,
  'the refused writes wrote no history'
);

select * from finish();
rollback;
