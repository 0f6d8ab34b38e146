begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'group', 'sub');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team/sub'), 'project', 'app');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values
  (lifecycle_test.id_of('acme/src'), 1001, 50),
  (lifecycle_test.id_of('acme/dst'), 2002, 50);
select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select * from lifecycle.namespace_transfer_accept((select id from lifecycle.transfer_requests), 2002);
select * from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'));

select results_eq(
  $$select namespace_id, kind, actor_id, old_full_path, new_full_path from lifecycle.namespace_redirects$$,
  $$select lifecycle_test.id_of('acme/dst/team'), 'transfer'::text, 2002::bigint, 'acme/src/team'::text, 'acme/dst/team'::text$$,
  'exactly one redirect: kind transfer, by the accepter, from the old full path to the new one'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/src/team')$$,
  $$select lifecycle_test.id_of('acme/dst/team'), 'acme/dst/team'::text, true$$,
  'the old path of the moved namespace resolves to it'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/src/team/sub/app')$$,
  $$select lifecycle_test.id_of('acme/dst/team/sub/app'), 'acme/dst/team/sub/app'::text, true$$,
  'the old path of a grandchild resolves to the grandchild at its new path'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/dst/team/sub/app')$$,
  $$select lifecycle_test.id_of('acme/dst/team/sub/app'), 'acme/dst/team/sub/app'::text, false$$,
  'the new path resolves without a redirect'
);

select * from finish();
rollback;
