begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/web'), 'project', 'site');
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/eng/web/site');

-- active → archived: no descendant, at any depth, may be transfer_in_progress.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme/eng'), 'archived'),
  'NS003', 'cannot change namespace state from ancestor_inherited to archived: descendant acme/eng/web/site is transfer_in_progress',
  'namespace_transition archiving a group above a transfer is NS003'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 1 where id = %s', lifecycle_test.id_of('acme/eng')),
  'NS003', 'cannot change namespace state from ancestor_inherited to archived: descendant acme/eng/web/site is transfer_in_progress',
  'the same raw UPDATE is NS003 with the same message'
);
-- active → deletion_scheduled, from the root.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme'), 'deletion_scheduled'),
  'NS003', null,
  'namespace_transition scheduling the root for deletion above a transfer is NS003'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 2 where id = %s', lifecycle_test.id_of('acme')),
  'NS003', null,
  'the same raw UPDATE is NS003'
);

select results_eq(
  $$select path, state::int from lifecycle.namespaces order by path$$,
  $$values ('acme'::text, 0), ('eng', 0), ('site', 5), ('web', 0)$$,
  'the refused writes changed no state'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates where to_state <> 5),
  0::bigint,
  'the refused writes wrote no history'
);

select * from finish();
rollback;
