-- A namespace's id is from 1 to 2^63 - 2 (0 is the "no parent" key of sibling paths; the guards
-- bound a subtree by its last id + 1), whoever writes it: the schema's owner, who may choose an
-- id, is refused with NS010 by the trigger (namespaces_traversal_ids_maintain) on an INSERT and an
-- UPDATE of id, where a check constraint said 23514 until 056; the upper bound itself is taken.
begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'counted');

select throws_ok($$insert into lifecycle.namespaces (id, parent_id, type, path, name) values (0, null, 'organization', 'zero', 'Zero')$$,
  'NS010', 'namespace id 0 is outside 1 to 9223372036854775806 (2^63 - 2)', 'id 0 is refused');
select throws_ok($$insert into lifecycle.namespaces (id, parent_id, type, path, name) values (-5, null, 'organization', 'neg', 'Neg')$$,
  'NS010', 'namespace id -5 is outside 1 to 9223372036854775806 (2^63 - 2)', 'a negative id is refused');
select throws_ok($$insert into lifecycle.namespaces (id, parent_id, type, path, name) values (9223372036854775807, null, 'organization', 'max', 'Max')$$,
  'NS010', 'namespace id 9223372036854775807 is outside 1 to 9223372036854775806 (2^63 - 2)', '2^63 - 1 is refused');
select throws_ok(format($$update lifecycle.namespaces set id = 0 where id = %s$$, lifecycle_test.id_of('counted')),
  'NS010', 'namespace id 0 is outside 1 to 9223372036854775806 (2^63 - 2)', 'an UPDATE of id to 0 is refused');
select lives_ok($$insert into lifecycle.namespaces (id, parent_id, type, path, name) values (9223372036854775806, null, 'organization', 'top', 'Top')$$,
  '2^63 - 2 is taken');

select * from finish();
rollback;
