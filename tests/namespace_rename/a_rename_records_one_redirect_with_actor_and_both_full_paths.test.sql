begin;
select plan(2);

-- The audit fact of a rename is one lifecycle.namespace_redirects row: kind rename, the actor, the
-- old and the new full path, and the namespace it leads to.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level)
values (lifecycle_test.id_of('acme'), 1001, 50);

select lifecycle.namespace_rename(lifecycle_test.id_of('acme/eng'), 'engineering', 1001);

select results_eq(
  $$select namespace_id, kind, actor_id, old_full_path, new_full_path from lifecycle.namespace_redirects$$,
  format($$values (%s::bigint, 'rename'::text, 1001::bigint, 'acme/eng'::text, 'acme/engineering'::text)$$,
         lifecycle_test.id_of('acme/engineering')),
  'exactly one redirect row: kind rename by 1001 from acme/eng to acme/engineering'
);
select is(
  (select created_at from lifecycle.namespace_redirects),
  now(),
  'the redirect is dated in the renaming transaction'
);

select * from finish();
rollback;
