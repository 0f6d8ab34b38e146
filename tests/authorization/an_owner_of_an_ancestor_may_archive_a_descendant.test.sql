begin;
select plan(4);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'web');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng/web'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'api');
-- 1001 owns the organization only; 1003 is a guest there and owns acme/eng/api only.
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50),
       (lifecycle_test.id_of('acme'), 1003, 10),
       (lifecycle_test.id_of('acme/eng/api'), 1003, 50);

select results_eq(
  format($$select to_state, changed from lifecycle.namespace_transition(%s, 'archived', 1001)$$,
         lifecycle_test.id_of('acme/eng/web/site')),
  $$values ('archived'::text, true)$$,
  'an owner of the organization may archive a project three levels down (membership is inherited)'
);
select is(
  (select actor_id from lifecycle.namespace_state_updates where namespace_id = lifecycle_test.id_of('acme/eng/web/site')),
  1001::bigint,
  'the history row names the owner'
);
select results_eq(
  format($$select to_state, changed from lifecycle.namespace_transition(%s, 'archived', 1003)$$,
         lifecycle_test.id_of('acme/eng/api')),
  $$values ('archived'::text, true)$$,
  'the effective level is the highest on the path: guest above, owner on the project itself'
);
select throws_ok(
  format($$select * from lifecycle.namespace_transition(%s, 'archived', 1003)$$, lifecycle_test.id_of('acme/eng')),
  'NS005', 'user 1003 may not move this namespace to archived',
  'owning a child grants nothing on its parent'
);

select * from finish();
rollback;
