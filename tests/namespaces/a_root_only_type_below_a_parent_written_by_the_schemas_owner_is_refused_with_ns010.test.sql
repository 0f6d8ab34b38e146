-- A namespace of a root-only type (an organization) has no parent, whoever writes it: the schema's
-- owner is refused with NS010 by the trigger (namespaces_traversal_ids_maintain) when an UPDATE of
-- type makes a namespace below a parent root-only, where a check constraint said 23514 until 056;
-- the same type at the root is accepted.
begin;
select plan(3);

select lifecycle_test.create_namespace(lifecycle_test.create_namespace(null, 'organization', 'rooted'), 'group', 'below');
select lifecycle_test.create_namespace(null, 'user', 'loner');

select throws_ok(format($$update lifecycle.namespaces set type = 'organization' where id = %s$$, lifecycle_test.id_of('rooted/below')),
  'NS010', 'a namespace of type organization has no parent', 'a namespace below a parent is not made an organization');
select is((select type from lifecycle.namespaces where id = lifecycle_test.id_of('rooted/below')), 'group', 'it stays a group');
select lives_ok(format($$update lifecycle.namespaces set type = 'organization' where id = %s$$, lifecycle_test.id_of('loner')),
  'a root may be made an organization');

select * from finish();
rollback;
