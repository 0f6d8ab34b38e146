begin;
select plan(3);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1002, 40);

select is(
  (select count(*) from lifecycle.transition_policies where min_access_level <> 50),
  0::bigint,
  'the default policy requires an owner for every target state'
);

update lifecycle.transition_policies set min_access_level = 40 where to_state = 1;
select results_eq(
  format($$select to_state, changed from lifecycle.namespace_transition(%s, 'archived', 1002)$$, lifecycle_test.id_of('acme/site')),
  $$values ('archived'::text, true)$$,
  'with archived lowered to 40, a maintainer may archive'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'active', 1002)$$, lifecycle_test.id_of('acme/site')),
  'NS005', 'user 1002 may not move this namespace to ancestor_inherited',
  'but still not unarchive, which keeps its own policy of 50'
);

select * from finish();
rollback;
