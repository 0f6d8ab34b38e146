begin;
select plan(31);

-- docs/design.md §3 guards: active → transfer_in_progress and archived → transfer_in_progress; every
-- ancestor, at any depth, must be active or archived (NS002 otherwise), even when a nearer
-- ancestor's own state masks it. docs/design.md's own example: a project in an archived subgroup of a group
-- scheduled for deletion is under a deletion, and may not start a transfer.
-- An ancestor in creation_in_progress cannot be set up: nothing is created below one.

-- transition(full_path, to_state): the call under test, as SQL text for throws_ok / lives_ok.
create function pg_temp.transition(full_path text, to_state text) returns text language sql as $$
  select format('select lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of(full_path), to_state)
$$;
-- state_of(full_path): the name of the namespace's own state.
create function pg_temp.state_of(full_path text) returns text language sql as $$
  select lifecycle.state_name(n.state) from lifecycle.namespaces n where n.id = lifecycle_test.id_of(full_path)
$$;

-- One tree per case: organization <case> / group g / subgroup s / project p; in the archived-*
-- cases p is archived first.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', c), 'group', 'g'), 'group', 's'), 'project', 'p')
  from unnest(array['parent-scheduled', 'grandparent-scheduled', 'grandparent-deleting', 'grandparent-transferring',
                    'grandparent-maintenance', 'masked', 'archived-grandparent-scheduled',
                    'archived-grandparent-deleting', 'archived-grandparent-transferring',
                    'archived-grandparent-maintenance', 'archived-masked']) as c;
select lifecycle.namespace_transition(lifecycle_test.id_of(c || '/g/s/p'), 'archived', null)
  from unnest(array['archived-grandparent-scheduled', 'archived-grandparent-deleting',
                    'archived-grandparent-transferring', 'archived-grandparent-maintenance', 'archived-masked']) as c;

-- active → transfer_in_progress

select lifecycle.namespace_transition(lifecycle_test.id_of('parent-scheduled/g/s'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('parent-scheduled/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'a transfer is refused when the parent is scheduled for deletion'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'a transfer is refused when the grandparent is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'transfer_in_progress'),
  'once the grandparent is restored, the transfer starts'
);
select is(pg_temp.state_of('grandparent-scheduled/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'a transfer is refused when the grandparent is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'transfer_in_progress'),
  'once the grandparent''s deletion failed back to active, the transfer starts'
);
select is(pg_temp.state_of('grandparent-deleting/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'a transfer is refused when the grandparent is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'transfer_in_progress'),
  'once the grandparent''s transfer is done, the transfer starts'
);
select is(pg_temp.state_of('grandparent-transferring/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-maintenance/g'), 'maintenance', null);
select throws_ok(
  pg_temp.transition('grandparent-maintenance/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'a transfer is refused when the grandparent is in maintenance'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-maintenance/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-maintenance/g/s/p', 'transfer_in_progress'),
  'once the grandparent''s maintenance is over, the transfer starts'
);
select is(pg_temp.state_of('grandparent-maintenance/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

-- docs/design.md's example: grandparent deletion_scheduled, parent archived (the nearest own state, which
-- the guard must look past), project active.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('masked/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'a transfer is refused in an archived subgroup of a group scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'active', null);
select lives_ok(
  pg_temp.transition('masked/g/s/p', 'transfer_in_progress'),
  'with the grandparent restored, a transfer below the archived parent starts (archived is allowed)'
);
select is(pg_temp.state_of('masked/g/s/p'), 'transfer_in_progress', 'the project below the archived parent is being transferred');

-- archived → transfer_in_progress

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-scheduled/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-scheduled/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'an archived project''s transfer is refused when the grandparent is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-scheduled/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-scheduled/g/s/p', 'transfer_in_progress'),
  'once the grandparent is restored, the archived project''s transfer starts'
);
select is(pg_temp.state_of('archived-grandparent-scheduled/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-deleting/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-deleting/g'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-deleting/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'an archived project''s transfer is refused when the grandparent is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-deleting/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-deleting/g/s/p', 'transfer_in_progress'),
  'once the grandparent''s deletion failed back to active, the archived project''s transfer starts'
);
select is(pg_temp.state_of('archived-grandparent-deleting/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-transferring/g'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-transferring/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'an archived project''s transfer is refused when the grandparent is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-transferring/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-transferring/g/s/p', 'transfer_in_progress'),
  'once the grandparent''s transfer is done, the archived project''s transfer starts'
);
select is(pg_temp.state_of('archived-grandparent-transferring/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-maintenance/g'), 'maintenance', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-maintenance/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'an archived project''s transfer is refused when the grandparent is in maintenance'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-maintenance/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-maintenance/g/s/p', 'transfer_in_progress'),
  'once the grandparent''s maintenance is over, the archived project''s transfer starts'
);
select is(pg_temp.state_of('archived-grandparent-maintenance/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-masked/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-masked/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('archived-masked/g/s/p', 'transfer_in_progress'), 'NS002', null,
  'an archived project''s transfer is refused in an archived subgroup of a group scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-masked/g'), 'archived', null);
select lives_ok(
  pg_temp.transition('archived-masked/g/s/p', 'transfer_in_progress'),
  'with every ancestor archived or active, the archived project''s transfer starts'
);
select is(pg_temp.state_of('archived-masked/g/s/p'), 'transfer_in_progress', 'the project is being transferred');

select * from finish();
rollback;
