begin;
select plan(33);

-- docs/design.md §3 guards: active → transfer_in_progress and archived → transfer_in_progress; every
-- descendant, at any depth, must be active (0) or archived (NS003 otherwise). Descendants are all of
-- them, not only direct children.
-- archived → transfer_in_progress above a creation_in_progress cannot be set up: nothing is created
-- below an archived namespace, and a namespace with a descendant in creation cannot be archived.

-- transition(full_path, to_state): the call under test, as SQL text for throws_ok / lives_ok.
create function pg_temp.transition(full_path text, to_state text) returns text language sql as $$
  select format('select lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of(full_path), to_state)
$$;
-- state_of(full_path): the name of the namespace's own state.
create function pg_temp.state_of(full_path text) returns text language sql as $$
  select lifecycle.state_name(n.state) from lifecycle.namespaces n where n.id = lifecycle_test.id_of(full_path)
$$;

-- One tree per case: organization <case> / group g (the one transferred) / subgroup s / project p;
-- in the archived-* cases g is archived first.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', c), 'group', 'g'), 'group', 's'), 'project', 'p')
  from unnest(array['child-scheduled', 'grandchild-scheduled', 'grandchild-deleting', 'grandchild-transferring',
                    'grandchild-maintenance', 'grandchild-archived', 'masked', 'archived-grandchild-scheduled',
                    'archived-grandchild-deleting', 'archived-grandchild-transferring',
                    'archived-grandchild-maintenance']) as c;
select lifecycle.namespace_transition(lifecycle_test.id_of(c || '/g'), 'archived', null)
  from unnest(array['archived-grandchild-scheduled', 'archived-grandchild-deleting',
                    'archived-grandchild-transferring', 'archived-grandchild-maintenance']) as c;
-- grandchild-creating: the project is created as creation_in_progress.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', 'grandchild-creating'), 'group', 'g'), 'group', 's');
insert into lifecycle.namespaces (parent_id, type, path, name, state)
values (lifecycle_test.id_of('grandchild-creating/g/s'), 'project', 'p', 'p', lifecycle.state_code('creation_in_progress'));

-- active → transfer_in_progress

select lifecycle.namespace_transition(lifecycle_test.id_of('child-scheduled/g/s'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('child-scheduled/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a child is scheduled for deletion'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-scheduled/g/s/p'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('grandchild-scheduled/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a grandchild is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-scheduled/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-scheduled/g', 'transfer_in_progress'),
  'once the grandchild is restored, the transfer starts'
);
select is(pg_temp.state_of('grandchild-scheduled/g'), 'transfer_in_progress', 'the group is being transferred');

select throws_ok(
  pg_temp.transition('grandchild-creating/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a grandchild is being created'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-creating/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-creating/g', 'transfer_in_progress'),
  'once the grandchild''s creation is done, the transfer starts'
);
select is(pg_temp.state_of('grandchild-creating/g'), 'transfer_in_progress', 'the group is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-deleting/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-deleting/g/s/p'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('grandchild-deleting/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a grandchild is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-deleting/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-deleting/g', 'transfer_in_progress'),
  'once the grandchild''s deletion failed back to active, the transfer starts'
);
select is(pg_temp.state_of('grandchild-deleting/g'), 'transfer_in_progress', 'the group is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-transferring/g/s/p'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('grandchild-transferring/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a grandchild is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-transferring/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-transferring/g', 'transfer_in_progress'),
  'once the grandchild''s transfer is done, the transfer starts'
);
select is(pg_temp.state_of('grandchild-transferring/g'), 'transfer_in_progress', 'the group is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-maintenance/g/s/p'), 'maintenance', null);
select throws_ok(
  pg_temp.transition('grandchild-maintenance/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a grandchild is in maintenance'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-maintenance/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-maintenance/g', 'transfer_in_progress'),
  'once the grandchild''s maintenance is over, the transfer starts'
);
select is(pg_temp.state_of('grandchild-maintenance/g'), 'transfer_in_progress', 'the group is being transferred');

-- Archived descendants are allowed.
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-archived/g/s/p'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-archived/g/s'), 'archived', null);
select lives_ok(
  pg_temp.transition('grandchild-archived/g', 'transfer_in_progress'),
  'a transfer above an archived child and an archived grandchild starts'
);
select is(pg_temp.state_of('grandchild-archived/g'), 'transfer_in_progress', 'the group is being transferred');

-- An explicit state on the child in between (archived, allowed) does not hide the grandchild.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s/p'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('masked/g', 'transfer_in_progress'), 'NS003', null,
  'a transfer is refused when a grandchild below an archived child is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('masked/g', 'transfer_in_progress'),
  'once the grandchild is restored, the transfer above the archived child starts'
);
select is(pg_temp.state_of('masked/g'), 'transfer_in_progress', 'the group is being transferred');

-- archived → transfer_in_progress

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-scheduled/g/s/p'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('archived-grandchild-scheduled/g', 'transfer_in_progress'), 'NS003', null,
  'an archived group''s transfer is refused when a grandchild is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-scheduled/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandchild-scheduled/g', 'transfer_in_progress'),
  'once the grandchild is restored, the archived group''s transfer starts'
);
select is(pg_temp.state_of('archived-grandchild-scheduled/g'), 'transfer_in_progress', 'the group is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-deleting/g/s/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-deleting/g/s/p'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('archived-grandchild-deleting/g', 'transfer_in_progress'), 'NS003', null,
  'an archived group''s transfer is refused when a grandchild is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-deleting/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandchild-deleting/g', 'transfer_in_progress'),
  'once the grandchild''s deletion failed back to active, the archived group''s transfer starts'
);
select is(pg_temp.state_of('archived-grandchild-deleting/g'), 'transfer_in_progress', 'the group is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-transferring/g/s/p'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('archived-grandchild-transferring/g', 'transfer_in_progress'), 'NS003', null,
  'an archived group''s transfer is refused when a grandchild is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-transferring/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandchild-transferring/g', 'transfer_in_progress'),
  'once the grandchild''s transfer is done, the archived group''s transfer starts'
);
select is(pg_temp.state_of('archived-grandchild-transferring/g'), 'transfer_in_progress', 'the group is being transferred');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-maintenance/g/s/p'), 'maintenance', null);
select throws_ok(
  pg_temp.transition('archived-grandchild-maintenance/g', 'transfer_in_progress'), 'NS003', null,
  'an archived group''s transfer is refused when a grandchild is in maintenance'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandchild-maintenance/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandchild-maintenance/g', 'transfer_in_progress'),
  'once the grandchild''s maintenance is over, the archived group''s transfer starts'
);
select is(pg_temp.state_of('archived-grandchild-maintenance/g'), 'transfer_in_progress', 'the group is being transferred');

select * from finish();
rollback;
