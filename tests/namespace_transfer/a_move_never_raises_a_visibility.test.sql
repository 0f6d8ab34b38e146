-- A transfer only ever lowers visibility (docs/design.md §5): a private group moved below a public
-- parent stays private, and so do its descendants.
begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'src');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'dst');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src'), 'group', 'team');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/src/team'), 'project', 'web');
insert into lifecycle.namespace_members (namespace_id, user_id, access_level) values (lifecycle_test.id_of('acme'), 1001, 50);
update lifecycle.namespaces set visibility = 'public' where id in (lifecycle_test.id_of('acme'), lifecycle_test.id_of('acme/dst'));

select * from lifecycle.namespace_transfer_request(lifecycle_test.id_of('acme/src/team'), lifecycle_test.id_of('acme/dst'), 1001);
select results_eq(
  $$select outcome from lifecycle.namespace_transfer_execute(lifecycle_test.id_of('acme/src/team'))$$,
  $$values ('completed'::text)$$, 'the move completes');
select results_eq(
  $$select lifecycle.namespace_full_path(id), visibility from lifecycle.namespaces
     where lifecycle.namespace_full_path(id) like 'acme/dst/%' order by 1$$,
  $$values ('acme/dst/team'::text, 'private'::text), ('acme/dst/team/web', 'private')$$,
  'the moved subtree stays private below a public parent'
);

select * from finish();
rollback;
