begin;
select plan(7);

-- acme/sunset is scheduled for deletion; its subgroup acme/sunset/old is archived and so masks the
-- scheduled deletion for the effective state, but not for the guards.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'sunset');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'group', 'old');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset/old'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/sunset'), 'project', 'api');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/sunset/old');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/sunset');

-- active → archived: no ancestor may be deletion_scheduled.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme/sunset/api'), 'archived'),
  'NS002', 'cannot change namespace state from ancestor_inherited to archived: ancestor acme/sunset is deletion_scheduled',
  'namespace_transition archiving a project below a scheduled group is NS002'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 1 where id = %s', lifecycle_test.id_of('acme/sunset/api')),
  'NS002', 'cannot change namespace state from ancestor_inherited to archived: ancestor acme/sunset is deletion_scheduled',
  'the same raw UPDATE is NS002 with the same message'
);
-- active → transfer_in_progress: every ancestor must be active or archived; the scheduled
-- grandparent is found behind the archived parent.
select throws_ok(
  format('select * from lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of('acme/sunset/old/site'), 'transfer_in_progress'),
  'NS002', 'cannot change namespace state from ancestor_inherited to transfer_in_progress: ancestor acme/sunset is deletion_scheduled',
  'namespace_transition starting a transfer two levels below a scheduled group is NS002'
);
select throws_ok(
  format('update lifecycle.namespaces set state = 5 where id = %s', lifecycle_test.id_of('acme/sunset/old/site')),
  'NS002', 'cannot change namespace state from ancestor_inherited to transfer_in_progress: ancestor acme/sunset is deletion_scheduled',
  'the same raw UPDATE is NS002 with the same message'
);
-- A multi-row raw UPDATE with one refused row fails as a whole.
select throws_ok(
  format('update lifecycle.namespaces set state = 1 where id in (%s, %s)',
         lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/sunset/api')),
  'NS002', null,
  'a multi-row raw UPDATE with one refused row is NS002'
);

select results_eq(
  $$select lifecycle.namespace_full_path(id), state::int from lifecycle.namespaces order by 1$$,
  $$values ('acme'::text, 0), ('acme/sunset', 2), ('acme/sunset/api', 0), ('acme/sunset/old', 1), ('acme/sunset/old/site', 0)$$,
  'the refused writes changed no state, not even the row the multi-row UPDATE could have changed'
);
select is(
  (select count(*) from lifecycle.namespace_state_updates
    where namespace_id in (lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/sunset/api'),
                           lifecycle_test.id_of('acme/sunset/old/site'))),
  0::bigint,
  'the refused writes wrote no history'
);

select * from finish();
rollback;
