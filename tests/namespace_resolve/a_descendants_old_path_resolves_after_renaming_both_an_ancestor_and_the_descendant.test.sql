begin;
select plan(3);

-- Every full path a namespace once had resolves to it (docs/design.md §5). Here the group is renamed, then
-- the project below it: the project's first full path acme/eng/site redirects through the group's
-- redirect to acme/engineering/site, which is itself an old path of the project (now
-- acme/engineering/web). Both old paths resolve to the project.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/eng'), 'engineering', null);
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/engineering/site'), 'web', null);

select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/engineering/site')$$,
  format($$values (%s::bigint, 'acme/engineering/web'::text, true)$$, lifecycle_test.id_of('acme/engineering/web')),
  'the project''s second path acme/engineering/site resolves to acme/engineering/web'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng/site')$$,
  format($$values (%s::bigint, 'acme/engineering/web'::text, true)$$, lifecycle_test.id_of('acme/engineering/web')),
  'the project''s first path acme/eng/site resolves to acme/engineering/web as well'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng')$$,
  format($$values (%s::bigint, 'acme/engineering'::text, true)$$, lifecycle_test.id_of('acme/engineering')),
  'the group''s old path resolves to the group'
);

select * from finish();
rollback;
