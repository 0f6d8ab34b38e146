begin;
select plan(4);

-- docs/design.md §5: descendant paths redirect too, by the longest redirected prefix, with the rest of the
-- path kept. Renaming the organization makes every old path below it resolve to the same
-- descendant at its new full path.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme'), 'acme-corp', null);

select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng/site')$$,
  format($$values (%s::bigint, 'acme-corp/eng/site'::text, true)$$, lifecycle_test.id_of('acme-corp/eng/site')),
  'the project''s old path acme/eng/site resolves to acme-corp/eng/site'
);
select results_eq(
  $$select * from lifecycle.namespace_resolve('acme/eng')$$,
  format($$values (%s::bigint, 'acme-corp/eng'::text, true)$$, lifecycle_test.id_of('acme-corp/eng')),
  'the group''s old path acme/eng resolves to acme-corp/eng'
);
select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/eng/nothing')$$,
  'an old prefix with a tail that never existed resolves to nothing'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  1::bigint,
  'one redirect row (for the renamed organization) serves the whole subtree'
);

select * from finish();
rollback;
