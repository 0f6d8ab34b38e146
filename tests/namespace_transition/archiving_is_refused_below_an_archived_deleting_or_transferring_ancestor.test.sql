begin;
select plan(16);

-- docs/design.md §3 guards: active → archived; no ancestor, at any depth, may be archived,
-- deletion_in_progress, deletion_scheduled or transfer_in_progress (NS002), even when a nearer
-- ancestor's own state masks it.

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
  from unnest(array['parent-archived', 'grandparent-archived', 'grandparent-scheduled', 'grandparent-deleting',
                    'grandparent-transferring', 'masked']) as c;

select lifecycle.namespace_transition(lifecycle_test.id_of('parent-archived/g/s'), 'archived', null);
select throws_ok(
  pg_temp.transition('parent-archived/g/s/p', 'archived'), 'NS002', null,
  'archiving is refused when the parent is archived'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-archived/g'), 'archived', null);
select throws_ok(
  pg_temp.transition('grandparent-archived/g/s/p', 'archived'), 'NS002', null,
  'archiving is refused when the grandparent is archived'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-archived/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-archived/g/s/p', 'archived'),
  'once the grandparent is unarchived, archiving succeeds'
);
select is(pg_temp.state_of('grandparent-archived/g/s/p'), 'archived', 'the project is archived');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'archived'), 'NS002', null,
  'archiving is refused when the grandparent is scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-scheduled/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-scheduled/g/s/p', 'archived'),
  'once the grandparent is restored, archiving succeeds'
);
select is(pg_temp.state_of('grandparent-scheduled/g/s/p'), 'archived', 'the project is archived');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'deletion_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'archived'), 'NS002', null,
  'archiving is refused when the grandparent is being deleted'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-deleting/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-deleting/g/s/p', 'archived'),
  'once the grandparent''s deletion failed back to active, archiving succeeds'
);
select is(pg_temp.state_of('grandparent-deleting/g/s/p'), 'archived', 'the project is archived');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'archived'), 'NS002', null,
  'archiving is refused when the grandparent is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-transferring/g'), 'active', null);
select lives_ok(
  pg_temp.transition('grandparent-transferring/g/s/p', 'archived'),
  'once the grandparent''s transfer is done, archiving succeeds'
);
select is(pg_temp.state_of('grandparent-transferring/g/s/p'), 'archived', 'the project is archived');

-- The parent's own state (maintenance, not forbidden here) is the nearest and hides the
-- grandparent's from the effective state; the guard must still see the grandparent.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'maintenance', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'deletion_scheduled', null);
select throws_ok(
  pg_temp.transition('masked/g/s/p', 'archived'), 'NS002', null,
  'archiving is refused when the grandparent is scheduled for deletion behind a parent in maintenance'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'active', null);
select lives_ok(
  pg_temp.transition('masked/g/s/p', 'archived'),
  'with the grandparent restored, archiving below the parent in maintenance succeeds (maintenance is not forbidden)'
);
select is(pg_temp.state_of('masked/g/s/p'), 'archived', 'the project below the parent in maintenance is archived');

select * from finish();
rollback;
