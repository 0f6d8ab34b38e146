-- Names are bounded (docs/design.md §8): 1 to 255 characters, not blank, no control characters;
-- refused with NS010 on create and on a raw UPDATE of name by the application role.
begin;
select plan(7);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;

select lives_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (lifecycle_test.id_of('acme'), 'group', 'ok', repeat('é', 255))$$,
  '255 characters are accepted');
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (lifecycle_test.id_of('acme'), 'group', 'long', repeat('x', 256))$$,
  'NS010', 'invalid name', '256 characters are refused');
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (lifecycle_test.id_of('acme'), 'group', 'big', repeat('x', 50000000))$$,
  'NS010', 'invalid name', 'a 50 MB name is refused');
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (lifecycle_test.id_of('acme'), 'group', 'blank', '   ')$$,
  'NS010', 'invalid name', 'a blank name is refused');
select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name) values (lifecycle_test.id_of('acme'), 'group', 'nul', null)$$,
  'NS010', 'invalid name', 'a missing name is refused with NS010, not a not-null violation');
set local role lifecycle_app;
select throws_ok(
  $$update lifecycle.namespaces set name = E'a\nb' where id = lifecycle_test.id_of('acme/ok')$$,
  'NS010', 'invalid name', 'lifecycle_app: a raw rename to a name with a control character is refused');
reset role;
select is((select name from lifecycle.namespaces where id = lifecycle_test.id_of('acme/ok')), repeat('é', 255), 'the name is unchanged');

select * from finish();
rollback;
