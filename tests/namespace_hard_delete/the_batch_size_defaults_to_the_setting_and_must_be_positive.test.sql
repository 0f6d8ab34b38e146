begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'doomed');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/doomed'), 'project', p)
  from unnest(array['a', 'b', 'c', 'd', 'e']) p;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'deletion_in_progress', null);
update lifecycle.settings set hard_delete_batch_size = 2;

select throws_ok(
  format('select * from lifecycle.namespace_hard_delete(%s, 0)', lifecycle_test.id_of('acme/doomed')),
  'NS010', 'batch_size must be at least 1',
  'a batch size of 0 is refused'
);
select results_eq(
  format('select * from lifecycle.namespace_hard_delete(%s)', lifecycle_test.id_of('acme/doomed')),
  $$values (2::bigint, 3::bigint, false)$$,
  'without a batch size, lifecycle.settings.hard_delete_batch_size (2) rows go'
);
select results_eq(
  format('select * from lifecycle.namespace_hard_delete(%s, null)', lifecycle_test.id_of('acme/doomed')),
  $$values (2::bigint, 1::bigint, false)$$,
  'a null batch size uses the setting too'
);

select * from finish();
rollback;
