begin;
select plan(12);

-- docs/design.md §3 guards: active → maintenance; no descendant, at any depth, may be creation_in_progress
-- or transfer_in_progress (NS003). Descendants are all of them, not only direct children.

-- transition(full_path, to_state): the call under test, as SQL text for throws_ok / lives_ok.
create function pg_temp.transition(full_path text, to_state text) returns text language sql as $$
  select format('select lifecycle.namespace_transition(%s, %L, null)', lifecycle_test.id_of(full_path), to_state)
$$;
-- state_of(full_path): the name of the namespace's own state.
create function pg_temp.state_of(full_path text) returns text language sql as $$
  select lifecycle.state_name(n.state) from lifecycle.namespaces n where n.id = lifecycle_test.id_of(full_path)
$$;

-- One tree per case: organization <case> / group g (the one put in maintenance) / subgroup s /
-- project p.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', c), 'group', 'g'), 'group', 's'), 'project', 'p')
  from unnest(array['child-transferring', 'grandchild-transferring', 'masked', 'grandchild-scheduled']) as c;
-- grandchild-creating: the project is created as creation_in_progress.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', 'grandchild-creating'), 'group', 'g'), 'group', 's');
insert into lifecycle.namespaces (parent_id, type, path, name, state)
values (lifecycle_test.id_of('grandchild-creating/g/s'), 'project', 'p', 'p', lifecycle.state_code('creation_in_progress'));

select lifecycle.namespace_transition(lifecycle_test.id_of('child-transferring/g/s'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('child-transferring/g', 'maintenance'), 'NS003', null,
  'maintenance is refused when a child is being transferred'
);

select throws_ok(
  pg_temp.transition('grandchild-creating/g', 'maintenance'), 'NS003', null,
  'maintenance is refused when a grandchild is being created'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-creating/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-creating/g', 'maintenance'),
  'once the grandchild''s creation is done, maintenance starts'
);
select is(pg_temp.state_of('grandchild-creating/g'), 'maintenance', 'the group is in maintenance');

select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-transferring/g/s/p'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('grandchild-transferring/g', 'maintenance'), 'NS003', null,
  'maintenance is refused when a grandchild is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-transferring/g/s/p'), 'active', null);
select lives_ok(
  pg_temp.transition('grandchild-transferring/g', 'maintenance'),
  'once the grandchild''s transfer is done, maintenance starts'
);
select is(pg_temp.state_of('grandchild-transferring/g'), 'maintenance', 'the group is in maintenance');

-- An explicit state on the child in between (archived, not forbidden) does not hide the grandchild.
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s'), 'archived', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s/p'), 'transfer_in_progress', null);
select throws_ok(
  pg_temp.transition('masked/g', 'maintenance'), 'NS003', null,
  'maintenance is refused when a grandchild below an archived child is being transferred'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('masked/g/s/p'), 'archived', null);
select lives_ok(
  pg_temp.transition('masked/g', 'maintenance'),
  'once that transfer is done (back to archived), maintenance above the archived child and grandchild starts'
);
select is(pg_temp.state_of('masked/g'), 'maintenance', 'the group is in maintenance');

-- A descendant scheduled for deletion is not forbidden.
select lifecycle.namespace_transition(lifecycle_test.id_of('grandchild-scheduled/g/s/p'), 'deletion_scheduled', null);
select lives_ok(
  pg_temp.transition('grandchild-scheduled/g', 'maintenance'),
  'maintenance above a grandchild scheduled for deletion starts'
);
select is(pg_temp.state_of('grandchild-scheduled/g'), 'maintenance', 'the group is in maintenance');

select * from finish();
rollback;
