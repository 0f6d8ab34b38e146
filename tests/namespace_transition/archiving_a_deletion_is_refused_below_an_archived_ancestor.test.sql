begin;
select plan(13);

-- docs/design.md §3 guards: deletion_scheduled → archived and deletion_in_progress → archived; no
-- ancestor, at any depth, may be archived (NS002), even when a nearer ancestor's own state masks it.

-- transition(full_path, to_state): the call under test, as SQL text for throws_ok / lives_ok.
create function pg_temp.transition(full_path text, to_state text) returns text language sql as $$
  select format('select lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of(full_path), to_state)
$$;
-- state_of(full_path): the name of the namespace's own state.
create function pg_temp.state_of(full_path text) returns text language sql as $$
  select lifecycle.state_name(n.state) from lifecycle.namespaces n where n.id = lifecycle_test.id_of(full_path)
$$;

-- One tree per case: organization <case> / group g / subgroup s / project p; p is scheduled for
-- deletion first (and, in the *-deleting cases, its deletion started).
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', c), 'group', 'g'), 'group', 's'), 'project', 'p')
  from unnest(array['scheduled-parent-archived', 'scheduled-grandparent-archived', 'deleting-parent-archived',
                    'deleting-grandparent-archived', 'masked']) as c;
select lifecycle.namespace_transition(lifecycle_test.id_of(c || '/g/s/p'), 'deletion_scheduled', null)
  from unnest(array['scheduled-parent-archived', 'scheduled-grandparent-archived', 'deleting-parent-archived',
                    'deleting-grandparent-archived', 'masked']) as c;
select lifecycle.namespace_transition(lifecycle_test.id_of(c || '/g/s/p'), 'deletion_in_progress', null)
  from unnest(array['deleting-parent-archived', 'deleting-grandparent-archived']) as c;

select lifecycle.namespace_transition(lifecycle_test.id_of('scheduled-parent-archived/g/s'), 'archived', null);
select throws_ok(
  pg_temp.transition('scheduled-parent-archived/g/s/p', 'archived'), 'NS002', null,
  'deletion_scheduled -> archived is refused when the parent is archived'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('scheduled-grandparent-archived/g'), 'archived', null);
select throws_ok(
  pg_temp.transition('scheduled-grandparent-archived/g/s/p', 'archived'), 'NS002', null,
  'deletion_scheduled -> archived is refused when the grandparent is archived'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('scheduled-grandparent-archived/g'), 'active', null);
select lives_ok(
  pg_temp.transition('scheduled-grandparent-archived/g/s/p', 'archived'),
  'once the grandparent is unarchived, deletion_scheduled -> archived succeeds'
);
select is(pg_temp.state_of('scheduled-grandparent-archived/g/s/p'), 'archived', 'the project is archived');

select lifecycle.namespace_transition(lifecycle_test.id_of('deleting-parent-archived/g/s'), 'archived', null);
select throws_ok(
  pg_temp.transition('deleting-parent-archived/g/s/p', 'archived'), 'NS002', null,
  'deletion_in_progress -> archived is refused when the parent is archived'
);

select lifecycle.namespace_transition(lifecycle_test.id_of('deleting-grandparent-archived/g'), 'archived', null);
select throws_ok(
  pg_temp.transition('deleting-grandparent-archived/g/s/p', 'archived'), 'NS002', null,
  'deletion_in_progress -> archived is refused when the grandparent is archived'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('deleting-grandparent-archived/g'), 'active', null);
select lives_ok(
  pg_temp.transition('deleting-grandparent-archived/g/s/p', 'archived'),
  'once the grandparent is unarchived, deletion_in_progress -> archived succeeds'
);
select is(pg_temp.state_of('deleting-grandparent-archived/g/s/p'), 'archived', 'the project is archived');

-- The parent's own state (deletion_scheduled, not forbidden here) is the nearest and hides the
-- archived grandparent from the effective state; the guard must still see the grandparent.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'archived', null);
select throws_ok(
  pg_temp.transition('masked/g/s/p', 'archived'), 'NS002', null,
  'deletion_scheduled -> archived is refused when the grandparent is archived behind a parent scheduled for deletion'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g'), 'active', null);
select lives_ok(
  pg_temp.transition('masked/g/s/p', 'archived'),
  'with the grandparent unarchived, deletion_scheduled -> archived below the parent scheduled for deletion succeeds'
);
select is(pg_temp.state_of('masked/g/s/p'), 'archived', 'the project below the parent scheduled for deletion is archived');

-- The neighbours: an ancestor in another state than archived does not block.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', 'parent-maintenance'), 'group', 'g'), 'project', 'p');
select lifecycle.namespace_transition(lifecycle_test.id_of('parent-maintenance/g/p'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('parent-maintenance/g'), 'maintenance', null);
select lives_ok(
  pg_temp.transition('parent-maintenance/g/p', 'archived'),
  'deletion_scheduled -> archived below a parent in maintenance succeeds'
);
select is(pg_temp.state_of('parent-maintenance/g/p'), 'archived', 'the project below the parent in maintenance is archived');

select * from finish();
rollback;
