begin;
select plan(3);

-- The rate limit is per namespace: renames of its parent or of a sibling do not count against it.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'g0');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/g0'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/g0'), 'project', 's0');
create table pg_temp.ids as
select lifecycle_test.id_of('acme/g0') as grp, lifecycle_test.id_of('acme/g0/site') as site,
       lifecycle_test.id_of('acme/g0/s0') as sibling;

-- Five renames each of the parent group and of the sibling: both at the limit.
select lifecycle.namespace_rename((select grp from pg_temp.ids), 'g' || i, null) from generate_series(1, 5) i;
select lifecycle.namespace_rename((select sibling from pg_temp.ids), 's' || i, null) from generate_series(1, 5) i;

select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'g6', null)$$, (select grp from pg_temp.ids)),
  'NS008', null,
  'the group itself is at its limit'
);
select results_eq(
  format($$select old_full_path, new_full_path, changed from lifecycle.namespace_rename(%s, 'web', null)$$,
         (select site from pg_temp.ids)),
  $$values ('acme/g5/site'::text, 'acme/g5/web'::text, true)$$,
  'the project below it, never renamed itself, may still be renamed'
);
select is(
  (select count(*) from lifecycle.namespace_redirects where namespace_id = (select site from pg_temp.ids)),
  1::bigint,
  'the project has one rename of its own'
);

select * from finish();
rollback;
