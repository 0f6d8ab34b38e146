begin;
select plan(22);

-- docs/design.md §3 guards: active → deletion_scheduled and archived → deletion_scheduled; no ancestor, at
-- any depth, may be deletion_in_progress, deletion_scheduled or transfer_in_progress (NS002), even
-- when a nearer ancestor's own state masks it.

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
                    'masked', 'archived-grandparent-scheduled', 'archived-grandparent-deleting',
                    'archived-grandparent-transferring']) as c;
select lifecycle.namespace_transition(lifecycle_test.id_of(c || '/g/s/p'), 'archived', null)
  from unnest(array['archived-grandparent-scheduled', 'archived-grandparent-deleting',
                    'archived-grandparent-transferring']) as c;

-- active → deletion_scheduled

select lifecycle.namespace_transition(lifecycle_test.id_of('parent-scheduled/g/s'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('parent-scheduled/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling deletion is refused when the parent is scheduled for deletion'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling deletion is refused when the grandparent is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'deletion_scheduled'),
  'once the grandparent is restored, scheduling deletion succeeds'
);
select is(pg_temp.state_of('grandparent-scheduled/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling deletion is refused when the grandparent is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'deletion_scheduled'),
  'once the grandparent''s deletion failed back to active, scheduling deletion succeeds'
);
select is(pg_temp.state_of('grandparent-deleting/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling deletion is refused when the grandparent is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'deletion_scheduled'),
  'once the grandparent''s transfer is done, scheduling deletion succeeds'
);
select is(pg_temp.state_of('grandparent-transferring/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

-- The parent's own state (archived, not forbidden here) is the nearest and hides the grandparent's
-- from the effective state; the guard must still see the grandparent.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('masked/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling deletion is refused when the grandparent is scheduled for deletion behind an archived parent'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'active', null);
select lives_ok(
  pg_temp.transition('masked/g/s/p', 'deletion_scheduled'),
  'with the grandparent restored, scheduling deletion below the archived parent succeeds (archived is not forbidden)'
);
select is(pg_temp.state_of('masked/g/s/p'), 'deletion_scheduled', 'the project below the archived parent is scheduled for deletion');

-- archived → deletion_scheduled

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-scheduled/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-scheduled/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling an archived project''s deletion is refused when the grandparent is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-scheduled/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-scheduled/g/s/p', 'deletion_scheduled'),
  'once the grandparent is restored, scheduling the archived project''s deletion succeeds'
);
select is(pg_temp.state_of('archived-grandparent-scheduled/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-deleting/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-deleting/g'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-deleting/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling an archived project''s deletion is refused when the grandparent is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-deleting/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-deleting/g/s/p', 'deletion_scheduled'),
  'once the grandparent''s deletion failed back to active, scheduling the archived project''s deletion succeeds'
);
select is(pg_temp.state_of('archived-grandparent-deleting/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-transferring/g'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('archived-grandparent-transferring/g/s/p', 'deletion_scheduled'), 'NS002', null,
  'scheduling an archived project''s deletion is refused when the grandparent is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('archived-grandparent-transferring/g'), 'active', null);
select lives_ok(
  pg_temp.transition('archived-grandparent-transferring/g/s/p', 'deletion_scheduled'),
  'once the grandparent''s transfer is done, scheduling the archived project''s deletion succeeds'
);
select is(pg_temp.state_of('archived-grandparent-transferring/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

select * from finish();
rollback;
