-- A namespace is of a known type (a row of lifecycle.namespace_types), whoever writes it: the
-- schema's owner, who may write any column, is refused with NS010 by the trigger
-- (namespaces_traversal_ids_maintain) on an INSERT and on an UPDATE of type, where a check
-- constraint said 23514 until 056. A client role may not UPDATE type at all.
begin;
select plan(4);

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'typed'), 'group', 'known');

select throws_ok($$insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'guild', 'guild', 'Guild')$$,
  'NS010', 'unknown namespace type ''guild''', 'an INSERT of an unknown type is refused');
select throws_ok(format($$update lifecycle.namespaces set type = 'guild' where id = %s$$, lifecycle_test.id_of('typed/known')),
  'NS010', 'unknown namespace type ''guild''', 'so is an UPDATE to an unknown type');
select is((select type from lifecycle.namespaces where id = lifecycle_test.id_of('typed/known')), 'group', 'the row keeps its type');

grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;
select throws_ok(format($$update lifecycle.namespaces set type = 'project' where id = %s$$, lifecycle_test.id_of('typed/known')),
  '42501', null, 'lifecycle_app may not UPDATE type');
reset role;

select * from finish();
rollback;
