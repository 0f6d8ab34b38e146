begin;
select plan(4);

-- Who may rename: lifecycle.operation_policies 'rename' (owner, 50, by default), on the effective
-- membership inherited down the tree. A maintainer (40) is refused with NS005; an owner of an
-- ancestor may rename a descendant.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme/eng/site'), 1002, 40), (lifecycle_test.id_of('acme'), 1001, 50);

select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'web', 1002)$$, lifecycle_test.id_of('acme/eng/site')),
  'NS005', 'user 1002 may not rename this namespace',
  'a maintainer (40) of the project may not rename it'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  0::bigint,
  'the refused rename wrote no redirect'
);
select results_eq(
  format($$select old_full_path, new_full_path, changed from lifecycle.namespace_rename(%s, 'web', 1001)$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values ('acme/eng/site'::text, 'acme/eng/web'::text, true)$$,
  'an owner of the organization may rename a project two levels down'
);
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'site', 1003)$$, lifecycle_test.id_of('acme/eng/web')),
  'NS005', 'user 1003 may not rename this namespace',
  'a user with no membership may not rename'
);

select * from finish();
rollback;
