begin;
select plan(15);

-- docs/design.md §3 guards: active → maintenance; no ancestor, at any depth, may be deletion_in_progress,
-- deletion_scheduled or transfer_in_progress (NS002), even when a nearer ancestor's own state masks it.

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
  from unnest(array['parent-scheduled', 'grandparent-scheduled', 'grandparent-deleting', 'grandparent-transferring',
                    'masked', 'grandparent-maintenance']) as c;

select lifecycle.namespace_transition(lifecycle_test.id_of('parent-scheduled/g/s'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('parent-scheduled/g/s/p', 'maintenance'), 'NS002', null,
  'maintenance is refused when the parent is scheduled for deletion'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'maintenance'), 'NS002', null,
  'maintenance is refused when the grandparent is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'maintenance'),
  'once the grandparent is restored, maintenance starts'
);
select is(pg_temp.state_of('grandparent-scheduled/g/s/p'), 'maintenance', 'the project is in maintenance');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'maintenance'), 'NS002', null,
  'maintenance is refused when the grandparent is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'maintenance'),
  'once the grandparent''s deletion failed back to active, maintenance starts'
);
select is(pg_temp.state_of('grandparent-deleting/g/s/p'), 'maintenance', 'the project is in maintenance');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'maintenance'), 'NS002', null,
  'maintenance is refused when the grandparent is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'maintenance'),
  'once the grandparent''s transfer is done, maintenance starts'
);
select is(pg_temp.state_of('grandparent-transferring/g/s/p'), 'maintenance', 'the project is in maintenance');

-- The parent's own state (archived, not forbidden here) is the nearest and hides the grandparent's
-- from the effective state; the guard must still see the grandparent.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('masked/g/s/p', 'maintenance'), 'NS002', null,
  'maintenance is refused when the grandparent is scheduled for deletion behind an archived parent'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'active', null);
select lives_ok(
  pg_temp.transition('masked/g/s/p', 'maintenance'),
  'with the grandparent restored, maintenance below the archived parent starts (archived is not forbidden)'
);
select is(pg_temp.state_of('masked/g/s/p'), 'maintenance', 'the project below the archived parent is in maintenance');

-- An ancestor in maintenance is not forbidden either.
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-maintenance/g'), 'maintenance', null);
select lives_ok(
  pg_temp.transition('grandparent-maintenance/g/s/p', 'maintenance'),
  'maintenance below a grandparent in maintenance starts'
);
select is(pg_temp.state_of('grandparent-maintenance/g/s/p'), 'maintenance', 'the project is in maintenance');

select * from finish();
rollback;
