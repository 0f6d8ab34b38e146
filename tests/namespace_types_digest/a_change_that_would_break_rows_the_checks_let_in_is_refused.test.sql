-- The check constraints of lifecycle.namespaces ask the type predicates, and the rows they let in
-- are not checked again: so the types trigger refuses (2BP01, naming the constraint) a change that
-- would alter what such a predicate answers for a type of the table, as removing a type or making
-- one root-only. A property no constraint asks (transferable) follows the table at once.
begin;
select plan(5);
select lifecycle_test.lock_rule_tables();

select throws_ok($$delete from lifecycle.namespace_types where name = 'user'$$,
  '2BP01', 'cannot change what lifecycle.namespace_type_known answers while constraint namespaces_type_known of lifecycle.namespaces uses it',
  'a type is not removed while the check of known types asks it');
select throws_ok($$update lifecycle.namespace_types set root_only = true where name = 'group'$$,
  '2BP01', null, 'nor made root-only while the root check asks it');
select ok(lifecycle.namespace_type_known('user') and not lifecycle.namespace_type_root_only('group'),
  'and the predicates still answer as before');

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'acme'), 'group', 'eng');
select lifecycle_test.create_namespace(null, 'organization', 'beta');
update lifecycle.namespace_types set transferable = false where name = 'group';
select is((select message from lifecycle.transfer_target_refusal(lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('beta'))),
  'a namespace of type group cannot be transferred', 'a group made untransferable does not move');
update lifecycle.namespace_types set transferable = true where name = 'group';
select is((select code from lifecycle.transfer_target_refusal(lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('beta'))),
  null, 'and moves again once transferable');

select * from finish();
rollback;
