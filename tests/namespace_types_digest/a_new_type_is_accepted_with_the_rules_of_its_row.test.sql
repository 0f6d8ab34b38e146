-- A type is a row: a new one is accepted by the checks of lifecycle.namespaces at once, with what
-- its row says it may do, by the trigger (NS010), on a client's INSERT and on the schema's
-- owner's UPDATE of type alike.
begin;
select plan(7);
select lifecycle_test.lock_rule_tables();

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
insert into lifecycle.namespace_types (name, description, transferable, can_be_parent)
  values ('team', 'A team, below a group.', true, false);
insert into lifecycle.namespace_types (name, description, root_only, transferable)
  values ('enterprise', 'Above organizations.', true, false);

select lives_ok(format($$insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, 'team', 'red', 'Red')$$,
                       lifecycle_test.id_of('acme/eng')),
  'a namespace of the new type is created');
select throws_ok(format($$insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, 'project', 'x', 'x')$$,
                        lifecycle_test.id_of('acme/eng/red')),
  'NS010', 'a team cannot have children', 'a type that takes no children has none');
select throws_ok(format($$insert into lifecycle.namespaces (parent_id, type, path, name) values (%s, 'enterprise', 'big', 'Big')$$,
                        lifecycle_test.id_of('acme')),
  'NS010', 'a namespace of type enterprise has no parent', 'a root-only type is refused below a parent');
select lives_ok($$insert into lifecycle.namespaces (parent_id, type, path, name) values (null, 'enterprise', 'big', 'Big')$$,
  'and created at the root');
select is((select code from lifecycle.transfer_target_refusal(lifecycle_test.id_of('acme/eng/red'), lifecycle_test.id_of('acme'))),
  null, 'a transferable type may move');

-- The schema's owner's UPDATE of type asks the same rows.
select throws_ok(format($$update lifecycle.namespaces set type = 'enterprise' where id = %s$$, lifecycle_test.id_of('acme/eng/red')),
  'NS010', 'a namespace of type enterprise has no parent', 'a namespace below a parent is not given a root-only type');
select throws_ok(format($$update lifecycle.namespaces set type = 'guild' where id = %s$$, lifecycle_test.id_of('acme/eng/red')),
  'NS010', 'unknown namespace type ''guild''', 'nor a type without a row');

select * from finish();
rollback;
