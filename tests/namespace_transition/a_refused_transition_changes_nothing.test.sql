begin;
select plan(7);

-- docs/design.md §4: "A failed call changes nothing." After a transition refused by the matrix (NS001),
-- an ancestor guard (NS002) or a descendant guard (NS003), every namespace keeps its state, its
-- state_metadata and its history; the call's metadata sticks nowhere, and the call leaves no
-- context behind that a later write in the same transaction would pick up.

-- transition(full_path, to_state): the call under test, as SQL text for throws_ok, with an actor
-- (null: the system) and metadata that would show up in state_metadata and history if it stuck.
create function pg_temp.transition(full_path text, to_state text) returns text language sql as $$
  select format('select lifecycle.namespace_transition(%s, %L, null, %L)', lifecycle_test.id_of(full_path), to_state,
                '{"reason": "refused call", "correlation_id": "refused-call", "last_error": "refused call"}')
$$;

-- One tree per refusal: organization <case> / group g / subgroup s / project p.
select lifecycle_test.create_namespace(lifecycle_test.create_namespace(lifecycle_test.create_namespace(
         lifecycle_test.create_namespace(null, 'organization', c), 'group', 'g'), 'group', 's'), 'project', 'p')
  from unnest(array['matrix', 'ancestor', 'descendant']) as c;
select lifecycle.namespace_transition(lifecycle_test.id_of('matrix/g/s/p'), 'maintenance', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('ancestor/g'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('descendant/g/s/p'), 'transfer_in_progress', null);

create table pg_temp.before as
select n.id, n.state, d.state_metadata,
       (select count(*) from lifecycle.namespace_state_updates h where h.namespace_id = n.id) as history_rows
  from lifecycle.namespaces n
  left join lifecycle.namespace_details d on d.namespace_id = n.id;

select throws_ok(
  pg_temp.transition('matrix/g/s/p', 'archived'), 'NS001', null,
  'maintenance -> archived is refused by the matrix'
);
select throws_ok(
  pg_temp.transition('ancestor/g/s/p', 'archived'), 'NS002', null,
  'archiving below a group scheduled for deletion is refused by the ancestor guard'
);
select throws_ok(
  pg_temp.transition('descendant/g', 'archived'), 'NS003', null,
  'archiving above a project being transferred is refused by the descendant guard'
);

select bag_eq(
  'select n.id, n.state from lifecycle.namespaces n',
  'select b.id, b.state from pg_temp.before b',
  'after the refusals every namespace has the state it had before'
);
select bag_eq(
  'select d.namespace_id, d.state_metadata from lifecycle.namespace_details d',
  'select b.id, b.state_metadata from pg_temp.before b',
  'after the refusals every namespace has the state_metadata it had before'
);
select bag_eq(
  'select h.namespace_id, count(*) from lifecycle.namespace_state_updates h group by h.namespace_id',
  'select b.id, b.history_rows from pg_temp.before b where b.history_rows > 0',
  'after the refusals every namespace has the history rows it had before, and no more'
);

-- A raw UPDATE in the same transaction afterwards is recorded as itself, not as the refused call.
update lifecycle.namespaces set state = lifecycle.state_code('active') where id = lifecycle_test.id_of('matrix/g/s/p');
select results_eq(
  format($$select h.from_state, h.to_state, h.source, h.actor_id, h.event, h.metadata
             from lifecycle.namespace_state_updates h where h.namespace_id = %s order by h.id desc limit 1$$,
         lifecycle_test.id_of('matrix/g/s/p')),
  $$values (lifecycle.state_code('maintenance'), lifecycle.state_code('active'), 'sql', null::bigint, null::text, '{}'::jsonb)$$,
  'a later raw update is recorded with source sql, no actor, no event and no metadata of the refused call'
);

select * from finish();
rollback;
