-- Every namespace is of a known type, and of a root-only type only at the root: rules judged when
-- a row is written (namespaces_traversal_ids_maintain, the import, an organization's move in), not
-- again afterwards. So the types trigger refuses (2BP01, naming a namespace) a change of
-- lifecycle.namespace_types that would make a namespace break one, as removing a type some
-- namespace has, or making root-only a type some namespace below a parent has; a type no namespace
-- has changes freely. (Until 056 check constraints asked those two predicates, and any change of
-- their answers for a type of the table was refused.) A property no rule of a row asks
-- (transferable) follows the table at once.
begin;
select plan(8);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'acme'), 'group', 'eng');
select lifecycle_test.create_namespace(null, 'organization', 'beta');
select lifecycle_test.create_namespace(null, 'user', 'alice');

select throws_ok($$delete from lifecycle.namespace_types where name = 'user'$$,
  '2BP01', 'cannot remove namespace type user while namespaces are of it',
  'a type a namespace has is not removed');
select throws_ok($$update lifecycle.namespace_types set root_only = true where name = 'group'$$,
  '2BP01', 'cannot make namespace type group root-only while namespaces of it have a parent',
  'nor made root-only while a namespace of it has a parent');
select ok(lifecycle.namespace_type_known('user') and not lifecycle.namespace_type_root_only('group'),
  'and the predicates still answer as before');

select lives_ok($$update lifecycle.namespace_types set root_only = true where name = 'user'$$,
  'a type whose namespaces are all roots is made root-only');
insert into lifecycle.namespace_types (name, description) values ('team', 'A type no namespace has.');
select lives_ok($$delete from lifecycle.namespace_types where name = 'team'$$, 'a type no namespace has is removed');
select ok(lifecycle.namespace_type_root_only('user') and not lifecycle.namespace_type_known('team'),
  'and the predicates follow');

update lifecycle.namespace_types set transferable = false where name = 'group';
select is((select message from lifecycle.transfer_target_refusal(lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('beta'))),
  'a namespace of type group cannot be transferred', 'a group made untransferable does not move');
update lifecycle.namespace_types set transferable = true where name = 'group';
select is((select code from lifecycle.transfer_target_refusal(lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('beta'))),
  null, 'and moves again once transferable');

select * from finish();
rollback;
