begin;
select plan(12);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'plain');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'old');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'gone');
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/old');
update lifecycle.namespaces set state = 2 where id = lifecycle_test.id_of('acme/gone');

select throws_ok(
  format($$select * from lifecycle.namespace_event(%s, %L, null)$$, lifecycle_test.id_of(c.path), c.event),
  'NS001',
  format('event %s does not apply to a namespace in state %s', c.event, c.state),
  format('%s on a namespace in state %s is NS001', c.event, c.state)
)
  from (values ('acme/plain', 'ancestor_inherited', 'creation_done'),
               ('acme/plain', 'ancestor_inherited', 'unarchive'),
               ('acme/plain', 'ancestor_inherited', 'restore'),
               ('acme/plain', 'ancestor_inherited', 'deletion_start'),
               ('acme/plain', 'ancestor_inherited', 'deletion_failed'),
               ('acme/plain', 'ancestor_inherited', 'transfer_done'),
               ('acme/plain', 'ancestor_inherited', 'unmaintain'),
               ('acme/old', 'archived', 'archive'),
               ('acme/old', 'archived', 'maintain'),
               ('acme/gone', 'deletion_scheduled', 'schedule_deletion'),
               ('acme/gone', 'deletion_scheduled', 'deletion_failed')) as c(path, state, event);

select results_eq(
  $$select lifecycle.namespace_full_path(n.id), n.state::int,
           (select count(*)::int from lifecycle.namespace_state_updates u where u.namespace_id = n.id)
      from lifecycle.namespaces n where n.parent_id is not null order by 1$$,
  $$values ('acme/gone'::text, 2, 1), ('acme/old', 1, 1), ('acme/plain', 0, 0)$$,
  'the refused events changed no state and wrote no history'
);

select * from finish();
rollback;
