begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'doomed');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed'), 'group', 'sub');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed/sub'), 'project', 'app');
create temp table ids as
  select lifecycle_test.id_of('acme/doomed/sub/app') as app, lifecycle_test.id_of('acme/doomed/sub') as sub;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'deletion_in_progress', null);

select lives_ok(
  format('delete from lifecycle.namespaces where id = %s', (select app from pg_temp.ids)),
  'a raw DELETE of a leaf two levels below a deletion_in_progress group goes through'
);
select is(
  (select count(*)::int from lifecycle.namespaces where id = (select app from pg_temp.ids)),
  0,
  'the leaf is gone'
);
select is(
  (select count(*)::int from lifecycle.namespace_details where namespace_id = (select app from pg_temp.ids)),
  0,
  'its details went with it'
);

select * from finish();
rollback;
