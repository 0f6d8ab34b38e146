-- No namespace is its own parent, whoever writes it: the schema's owner, who may choose an id, is
-- refused with NS010 by the trigger (namespaces_traversal_ids_maintain) on an INSERT whose
-- parent_id is its own id (NS004, parent not found, until 056, before the check constraint's 23514)
-- and on an UPDATE that sets parent_id to the row's id or the id to its parent's.
begin;
select plan(4);

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'selfish'), 'group', 'me');

select throws_ok($$insert into lifecycle.namespaces (id, parent_id, type, path, name) values (987654, 987654, 'group', 'ouro', 'Ouro')$$,
  'NS010', 'a namespace cannot be placed below itself', 'an INSERT below itself is refused');
select throws_ok(format($$update lifecycle.namespaces set parent_id = id where id = %s$$, lifecycle_test.id_of('selfish/me')),
  'NS010', 'a namespace cannot be placed below itself', 'an UPDATE of parent_id to itself is refused');
select throws_ok(format($$update lifecycle.namespaces set id = parent_id where id = %s$$, lifecycle_test.id_of('selfish/me')),
  'NS010', 'a namespace cannot be placed below itself', 'an UPDATE of id to its parent''s is refused');
select is((select parent_id from lifecycle.namespaces where id = lifecycle_test.id_of('selfish/me')), lifecycle_test.id_of('selfish'),
  'the row keeps its parent');

select * from finish();
rollback;
