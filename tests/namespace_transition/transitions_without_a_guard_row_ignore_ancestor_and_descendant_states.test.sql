begin;
select plan(20);

-- docs/design.md §3 guards, last row: "all other allowed transitions" have no guard. Each case below puts
-- a state on an ancestor or a descendant that a guarded transition would be refused for, and the
-- unguarded transition still succeeds.

-- transition(full_path, to_state): the call under test, as SQL text for throws_ok / lives_ok.
create function pg_temp.transition(full_path text, to_state text) returns text language sql as $$
  select format('select lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of(full_path), to_state)
$$;
-- state_of(full_path): the name of the namespace's own state.
create function pg_temp.state_of(full_path text) returns text language sql as $$
  select lifecycle.state_name(n.state) from lifecycle.namespaces n where n.id = lifecycle_test.id_of(full_path)
$$;

-- One tree per case: organization <case> / group g / subgroup s / project p.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', c), 'group', 'g'), 'group', 's'), 'project', 'p')
  from unnest(array['restore-below-scheduled', 'start-deletion-below-archived', 'deletion-failed-below-scheduled',
                    'requeue-below-scheduled', 'transfer-done-to-archived-below-archived',
                    'transfer-done-below-archived', 'maintenance-over-below-scheduled',
                    'maintenance-over-above-deleting', 'restore-above-deleting',
                    'start-deletion-above-maintenance']) as c;

-- Ancestors

select lifecycle.namespace_transition(lifecycle_test.id_of('restore-below-scheduled/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('restore-below-scheduled/g'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('restore-below-scheduled/g/s/p', 'active'),
  'deletion_scheduled -> active (restore) succeeds below a grandparent scheduled for deletion'
);
select is(pg_temp.state_of('restore-below-scheduled/g/s/p'), 'ancestor_inherited', 'the project is restored');

select lifecycle.namespace_transition(lifecycle_test.id_of('start-deletion-below-archived/g'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('start-deletion-below-archived/g/s/p'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('start-deletion-below-archived/g/s/p', 'deletion_in_progress'),
  'deletion_scheduled -> deletion_in_progress succeeds below an archived grandparent'
);
select is(pg_temp.state_of('start-deletion-below-archived/g/s/p'), 'deletion_in_progress', 'the project is being deleted');

select lifecycle.namespace_transition(lifecycle_test.id_of('deletion-failed-below-scheduled/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('deletion-failed-below-scheduled/g/s/p'), 'deletion_in_progress', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('deletion-failed-below-scheduled/g'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('deletion-failed-below-scheduled/g/s/p', 'active'),
  'deletion_in_progress -> active succeeds below a grandparent scheduled for deletion'
);
select is(pg_temp.state_of('deletion-failed-below-scheduled/g/s/p'), 'ancestor_inherited', 'the project is active');

select lifecycle.namespace_transition(lifecycle_test.id_of('requeue-below-scheduled/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('requeue-below-scheduled/g/s/p'), 'deletion_in_progress', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('requeue-below-scheduled/g'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('requeue-below-scheduled/g/s/p', 'deletion_scheduled'),
  'deletion_in_progress -> deletion_scheduled (requeue) succeeds below a grandparent scheduled for deletion'
);
select is(pg_temp.state_of('requeue-below-scheduled/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion again');

-- Unlike deletion_scheduled -> archived and deletion_in_progress -> archived, transfer_in_progress
-- -> archived has no "no archived ancestor" guard.
select lifecycle.namespace_transition(lifecycle_test.id_of('transfer-done-to-archived-below-archived/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('transfer-done-to-archived-below-archived/g/s/p'), 'transfer_in_progress', null);
select lives_ok(
  pg_temp.transition('transfer-done-to-archived-below-archived/g/s/p', 'archived'),
  'transfer_in_progress -> archived succeeds below an archived parent'
);
select is(pg_temp.state_of('transfer-done-to-archived-below-archived/g/s/p'), 'archived', 'the project is archived');

select lifecycle.namespace_transition(lifecycle_test.id_of('transfer-done-below-archived/g'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('transfer-done-below-archived/g/s/p'), 'transfer_in_progress', null);
select lives_ok(
  pg_temp.transition('transfer-done-below-archived/g/s/p', 'active'),
  'transfer_in_progress -> active succeeds below an archived grandparent'
);
select is(pg_temp.state_of('transfer-done-below-archived/g/s/p'), 'ancestor_inherited', 'the project is active');

select lifecycle.namespace_transition(lifecycle_test.id_of('maintenance-over-below-scheduled/g/s/p'), 'maintenance', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('maintenance-over-below-scheduled/g'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('maintenance-over-below-scheduled/g/s/p', 'active'),
  'maintenance -> active succeeds below a grandparent scheduled for deletion'
);
select is(pg_temp.state_of('maintenance-over-below-scheduled/g/s/p'), 'ancestor_inherited', 'the project is active');

-- Descendants

select lifecycle.namespace_transition(lifecycle_test.id_of('maintenance-over-above-deleting/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('maintenance-over-above-deleting/g/s/p'), 'deletion_in_progress', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('maintenance-over-above-deleting/g'), 'maintenance', null);
select lives_ok(
  pg_temp.transition('maintenance-over-above-deleting/g', 'active'),
  'maintenance -> active succeeds above a grandchild being deleted'
);
select is(pg_temp.state_of('maintenance-over-above-deleting/g'), 'ancestor_inherited', 'the group is active');

select lifecycle.namespace_transition(lifecycle_test.id_of('restore-above-deleting/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('restore-above-deleting/g/s/p'), 'deletion_in_progress', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('restore-above-deleting/g'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('restore-above-deleting/g', 'active'),
  'deletion_scheduled -> active (restore) succeeds above a grandchild being deleted'
);
select is(pg_temp.state_of('restore-above-deleting/g'), 'ancestor_inherited', 'the group is restored');

select lifecycle.namespace_transition(lifecycle_test.id_of('start-deletion-above-maintenance/g/s/p'), 'maintenance', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('start-deletion-above-maintenance/g'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('start-deletion-above-maintenance/g', 'deletion_in_progress'),
  'deletion_scheduled -> deletion_in_progress succeeds above a grandchild in maintenance'
);
select is(pg_temp.state_of('start-deletion-above-maintenance/g'), 'deletion_in_progress', 'the group is being deleted');

select * from finish();
rollback;
