-- The application role writes namespaces (INSERT, name) and memberships directly; what the tables'
-- constraints would refuse with raw SQLSTATEs is refused first with documented codes
-- (docs/design.md §4): NS010 for an unknown visibility or access level, NS004 for a membership of
-- a namespace that does not exist.
begin;
select plan(5);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
grant usage on schema tap, lifecycle_test to lifecycle_app;
set local role lifecycle_app;

select throws_ok(
  $$insert into lifecycle.namespaces (parent_id, type, path, name, visibility) values (lifecycle_test.id_of('acme'), 'group', 'g', 'g', 'secret')$$,
  'NS010', 'unknown visibility ''secret''', 'lifecycle_app: an unknown visibility is NS010');
select throws_ok(
  $$insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 7, 35)$$,
  'NS010', 'invalid access level 35', 'lifecycle_app: an access level outside 10..50 steps is NS010');
select throws_ok(
  $$insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (-1, 7, 30)$$,
  'NS004', 'namespace not found', 'lifecycle_app: a membership of a missing namespace is NS004');
select lives_ok(
  $$insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 7, 30)$$,
  'lifecycle_app: a valid membership is accepted');
select throws_ok(
  $$update lifecycle.namespace_members set access_level = 60 where user_id = 7$$,
  'NS010', 'invalid access level 60', 'lifecycle_app: an update is checked too');
reset role;

select * from finish();
rollback;
