begin;
select plan(5);

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
select * from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'));

create temp table before_namespaces as select id, parent_id, state, traversal_ids, updated_at from lifecycle.namespaces;
create temp table before_details as select namespace_id, state_metadata from lifecycle.namespace_details;
create temp table before_requests as select * from lifecycle.transfer_requests;

select results_eq(
  $$select outcome, old_full_path, new_full_path from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/dst/team'))$$,
  $$values ('noop'::text, 'acme/dst/team'::text, null::text)$$,
  'a second execute returns noop'
);
select set_eq(
  $$select id, parent_id, state, traversal_ids, updated_at from lifecycle.namespaces$$,
  $$select * from pg_temp.before_namespaces$$,
  'no namespace changed'
);
select set_eq(
  $$select namespace_id, state_metadata from lifecycle.namespace_details$$,
  $$select * from pg_temp.before_details$$,
  'no state metadata changed'
);
select set_eq(
  $$select * from lifecycle.transfer_requests$$,
  $$select * from pg_temp.before_requests$$,
  'the request is unchanged (completed)'
);
select results_eq(
  $$select (select count(*)::int from lifecycle.namespace_redirects), (select count(*)::int from lifecycle.namespace_state_updates)$$,
  $$values (1, 2)$$,
  'still one redirect and two history rows (transfer_start, transfer_done)'
);

select * from finish();
rollback;
