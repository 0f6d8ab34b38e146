begin;
select plan(3);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'ops');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');

select throws_ok(
  format('update lifecycle.namespaces set parent_id = %s where id = %s',
         lifecycle_test.id_of('acme/ops'), lifecycle_test.id_of('acme/eng/site')),
  'NS001',
  'a namespace moves only while transfer_in_progress, not ancestor_inherited',
  'a raw UPDATE of parent_id on an active namespace is refused'
);
select is((select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('acme/eng/site')),
          lifecycle_test.id_of('acme/eng'), 'the refused move changed nothing');

update lifecycle.namespaces set state = 5 where id = lifecycle_test.id_of('acme/eng/site');
select lives_ok(
  format('update lifecycle.namespaces set parent_id = %s where id = %s',
         lifecycle_test.id_of('acme/ops'), lifecycle_test.id_of('acme/eng/site')),
  'while transfer_in_progress the move goes through'
);

select * from finish();
rollback;
