begin;
select plan(3);

-- lifecycle.operation_policies 'change_visibility' requires an owner (50) by default: a
-- maintainer (40) is refused with NS005, an owner of an ancestor may.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme'), 'public', null);
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1002, 40), (lifecycle_test.id_of('acme'), 1001, 50);

select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'internal', 1002)$$, lifecycle_test.id_of('acme/site')),
  'NS005', 'user 1002 may not change the visibility of this namespace',
  'a maintainer (40) may not change the visibility'
);
select is(
  (select visibility from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  'private',
  'the refused call changed nothing'
);
select results_eq(
  format($$select visibility, changed from lifecycle.namespace_set_visibility(%s, 'internal', 1001)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('internal'::text, true)$$,
  'an owner of the organization may'
);

select * from finish();
rollback;
