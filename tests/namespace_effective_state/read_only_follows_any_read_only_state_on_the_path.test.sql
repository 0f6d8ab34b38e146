begin;
select plan(2);

-- One group per state, each with a project below it (created before the states are set);
-- creation_in_progress is an initial state only, so its group has no project.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', g)
  from unnest(array['plain', 'archived', 'scheduled', 'deleting', 'moving', 'maintained']) as g;
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/' || g), 'project', 'p')
  from unnest(array['plain', 'archived', 'scheduled', 'deleting', 'moving', 'maintained']) as g;
insert into lifecycle.namespaces (parent_id, type, path, name, state)
values (lifecycle_test.id_of('acme'), 'group', 'creating', 'creating', 3);
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/archived');
update lifecycle.namespaces set state = 2 where id in (lifecycle_test.id_of('acme/scheduled'), lifecycle_test.id_of('acme/deleting'));
update lifecycle.namespaces set state = 4 where id = lifecycle_test.id_of('acme/deleting');
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/moving');
update lifecycle.namespaces set state = 6 where id = lifecycle_test.id_of('acme/maintained');

select results_eq(
  $$select lifecycle.namespace_full_path(n.id), e.state, e.read_only
      from lifecycle.namespaces n cross join lateral lifecycle.namespace_effective_state(n.id) e
     where n.parent_id = lifecycle_test.id_of('acme')
     order by 1$$,
  $$values ('acme/archived'::text, 'archived'::text, true),
           ('acme/creating', 'creation_in_progress', false),
           ('acme/deleting', 'deletion_in_progress', true),
           ('acme/maintained', 'maintenance', true),
           ('acme/moving', 'transfer_in_progress', true),
           ('acme/plain', 'ancestor_inherited', false),
           ('acme/scheduled', 'deletion_scheduled', true)$$,
  'read_only is set by archived, deletion_*, transfer_in_progress and maintenance, not by active or creation_in_progress'
);
select results_eq(
  $$select lifecycle.namespace_full_path(n.id), e.read_only
      from lifecycle.namespaces n cross join lateral lifecycle.namespace_effective_state(n.id) e
     where n.path = 'p'
     order by 1$$,
  $$values ('acme/archived/p'::text, true),
           ('acme/deleting/p', true),
           ('acme/maintained/p', true),
           ('acme/moving/p', true),
           ('acme/plain/p', false),
           ('acme/scheduled/p', true)$$,
  'a project inherits read_only from the state of its parent'
);

select * from finish();
rollback;
