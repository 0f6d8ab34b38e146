begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select throws_ok(
  format('update lifecycle.namespaces set traversal_ids = array[1, 2, 3] where id = %s', lifecycle_test.id_of('acme/eng')),
  'NS010',
  'traversal_ids is maintained by the database',
  'a direct write of traversal_ids is refused with NS010'
);
select is(
  (select traversal_ids from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng')),
  array[lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/eng')],
  'the refused write changed nothing'
);

select * from finish();
rollback;
