begin;
select plan(6);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002);
-- After the accept, the target stops qualifying: it is archived by a raw UPDATE (as the system).
update lifecycle.namespaces set state = 1 where id = lifecycle_test.id_of('acme/dst');

select results_eq(
  $$select outcome, old_full_path, new_full_path from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('failed'::text, 'acme/src/team'::text, null::text)$$,
  'execute reports the move as failed'
);
select results_eq(
  $$select lifecycle.namespace_full_path(id), parent_id from lifecycle.namespaces
     where id in (lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/src/team/web')) order by id$$,
  $$select 'acme/src/team'::text, lifecycle_test.id_of('acme/src') union all
    select 'acme/src/team/web', lifecycle_test.id_of('acme/src/team')$$,
  'nothing moved: the namespace and its child keep their parents and paths'
);
select results_eq(
  $$select status, last_error, completed_at from lifecycle.transfer_requests$$,
  $$values ('failed'::text, 'NS002: cannot move below acme/dst: acme/dst is archived', now())$$,
  'the request is failed with last_error'
);
select results_eq(
  $$select state::int, state_metadata ->> 'last_error', state_metadata ? 'preserved_state'
      from lifecycle.namespaces n join lifecycle.namespace_details d on d.namespace_id = n.id
     where n.id = lifecycle_test.id_of('acme/src/team')$$,
  $$values (0, 'NS002: cannot move below acme/dst: acme/dst is archived'::text, false)$$,
  'the namespace is back in its preserved state (active) with last_error in its state_metadata'
);
select results_eq(
  $$select from_state::int, to_state::int, event from lifecycle.namespace_state_updates
     where namespace_id = lifecycle_test.id_of('acme/src/team') order by id$$,
  $$values (0, 5, 'transfer_start'::text), (5, 0, 'transfer_done'::text)$$,
  'history: transfer_start, then transfer_done'
);
select is((select count(*)::int from lifecycle.namespace_redirects), 0, 'no redirect was left');

select * from finish();
rollback;
