begin;
select plan(7);

-- acme/src/team (with sub, sub/app and web below) moves below acme/dst.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'group', 'sub');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team/sub'), 'project', 'app');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002);

select results_eq(
  $$select outcome, old_full_path, new_full_path from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('completed'::text, 'acme/src/team'::text, 'acme/dst/team'::text)$$,
  'execute completes and reports the old and the new full path'
);
select is(
  (select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('acme/dst/team')),
  lifecycle_test.id_of('acme/dst'),
  'the parent is the target'
);
select results_eq(
  $$select lifecycle.namespace_full_path(id), traversal_ids from lifecycle.namespaces
     where traversal_ids[1:3] = array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/dst/team')]
     order by traversal_ids$$,
  $$values ('acme/dst/team'::text, array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/dst/team')]),
           ('acme/dst/team/sub', array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/dst/team'),
                                       lifecycle_test.id_of('acme/dst/team/sub')]),
           ('acme/dst/team/sub/app', array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/dst/team'),
                                           lifecycle_test.id_of('acme/dst/team/sub'), lifecycle_test.id_of('acme/dst/team/sub/app')]),
           ('acme/dst/team/web', array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/dst'), lifecycle_test.id_of('acme/dst/team'),
                                       lifecycle_test.id_of('acme/dst/team/web')])$$,
  'every namespace of the subtree, the grandchild too, has the new prefix in traversal_ids'
);
select is(
  (select count(*)::int from lifecycle.namespaces where lifecycle_test.id_of('acme/src') = any (traversal_ids) and id <> lifecycle_test.id_of('acme/src')),
  0,
  'nothing is left below the old parent'
);
select results_eq(
  $$select status, last_error, completed_at from lifecycle.transfer_requests$$,
  $$values ('completed'::text, null::text, now())$$,
  'the request is completed'
);
select results_eq(
  $$select state::int, state_metadata -> 'progress', state_metadata ? 'preserved_state'
      from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
     where n.id = lifecycle_test.id_of('acme/dst/team')$$,
  $$values (0, '{"done": 4, "total": 4}'::jsonb, false)$$,
  'the namespace is active again, with progress {done, total} = the subtree size'
);
select results_eq(
  $$select from_state::int, to_state::int, event from lifecycle.namespace_state_updates
     where namespace_id = lifecycle_test.id_of('acme/dst/team') order by id$$,
  $$values (0, 5, 'transfer_start'::text), (5, 0, 'transfer_done'::text)$$,
  'history: transfer_start, then transfer_done'
);

select * from finish();
rollback;
