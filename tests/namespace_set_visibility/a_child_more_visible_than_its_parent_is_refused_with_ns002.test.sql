begin;
select plan(5);

-- docs/design.md §5: a child may not be more visible than its parent. The visibility trigger refuses it
-- with NS002 on every write path: namespace_set_visibility and a plain INSERT.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle.namespace_set_visibility(lifecycle_test.id_of('acme'), 'internal', null);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'public', null)$$, lifecycle_test.id_of('acme/site')),
  'NS002', 'a namespace cannot be more visible than its parent acme, which is internal',
  'making a project public below an internal organization is refused'
);
select is(
  (select visibility from lifecycle.namespaces where id = lifecycle_test.id_of('acme/site')),
  'private',
  'the refused call left the project private'
);
select throws_ok(
  format($$insert into lifecycle.namespaces (parent_id, type, path, name, visibility)
           values (%s, 'project', 'shop', 'shop', 'public')$$, lifecycle_test.id_of('acme')),
  'NS002', 'a namespace cannot be more visible than its parent acme, which is internal',
  'creating a public project below an internal organization is refused'
);
select lives_ok(
  format($$insert into lifecycle.namespaces (parent_id, type, path, name, visibility)
           values (%s, 'project', 'shop', 'shop', 'internal')$$, lifecycle_test.id_of('acme')),
  'creating an internal project below it, as visible as its parent, is fine'
);
select results_eq(
  format($$select visibility, changed from lifecycle.namespace_set_visibility(%s, 'internal', null)$$,
         lifecycle_test.id_of('acme/site')),
  $$values ('internal'::text, true)$$,
  'making the private project internal, as visible as its parent, is fine'
);

select * from finish();
rollback;
