begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'group', 'web');
-- Moves happen only while transfer_in_progress.
update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/eng');

select throws_ok(
  format('update lifecycle.namespaces set parent_id = %s where id = %s',
         lifecycle_test.id_of('acme/eng/web'), lifecycle_test.id_of('acme/eng')),
  'NS010',
  'a namespace cannot be placed below itself',
  'moving a group below its own child is refused'
);
select throws_ok(
  format('update lifecycle.namespaces set parent_id = %s where id = %s',
         lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng')),
  'NS010',
  'a namespace cannot be placed below itself',
  'a namespace cannot be its own parent'
);
select is(
  (select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng')),
  lifecycle_test.id_of('acme'),
  'the refused moves changed nothing'
);

select * from finish();
rollback;
