begin;
select plan(8);

-- docs/design.md §3: ADR 003's code sample ("cannot schedule deletion when ancestor is archived")
-- contradicts its own guard table; the table wins. An archived ancestor does not block
-- active → deletion_scheduled nor archived → deletion_scheduled.

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
  from unnest(array['parent-archived', 'grandparent-archived', 'both-archived', 'all-archived']) as c;

select lifecycle.namespace_transition(lifecycle_test.id_of('parent-archived/g/s'), 'archived', null);
select lives_ok(
  pg_temp.transition('parent-archived/g/s/p', 'deletion_scheduled'),
  'an active project under an archived group may be scheduled for deletion'
);
select is(pg_temp.state_of('parent-archived/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandparent-archived/g'), 'archived', null);
select lives_ok(
  pg_temp.transition('grandparent-archived/g/s/p', 'deletion_scheduled'),
  'an active project under an archived grandparent may be scheduled for deletion'
);
select is(pg_temp.state_of('grandparent-archived/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

-- An archived project inside an archived group (archived bottom-up: archiving below an archived
-- ancestor is refused).
select lifecycle.namespace_transition(lifecycle_test.id_of('both-archived/g/s/p'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('both-archived/g/s'), 'archived', null);
select lives_ok(
  pg_temp.transition('both-archived/g/s/p', 'deletion_scheduled'),
  'an archived project under an archived group may be scheduled for deletion'
);
select is(pg_temp.state_of('both-archived/g/s/p'), 'deletion_scheduled', 'the project is scheduled for deletion');

-- A subgroup, with its project, under an archived group.
select lifecycle.namespace_transition(lifecycle_test.id_of('all-archived/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('all-archived/g'), 'archived', null);
select lives_ok(
  pg_temp.transition('all-archived/g/s', 'deletion_scheduled'),
  'an archived subgroup under an archived group may be scheduled for deletion'
);
select is(pg_temp.state_of('all-archived/g/s'), 'deletion_scheduled', 'the subgroup is scheduled for deletion');

select * from finish();
rollback;
