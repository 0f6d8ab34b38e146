-- The documented maximum depth (docs/design.md §8, lifecycle.namespace_max_depth): a chain of
-- 100 levels is accepted, the 101st is refused with NS010 instead of the index's 54000.
begin;
select plan(4);

select is(lifecycle.namespace_max_depth(), 100, 'the limit is 100 levels');

do $$
declare
  parent bigint := lifecycle_test.create_namespace(null, 'organization', 'deep');
begin
  for i in 2..100 loop
    parent := lifecycle_test.create_namespace(parent, 'group', 'g' || i);
  end loop;
end
$$;
select is((select max(pg_catalog.cardinality(traversal_ids)) from lifecycle.namespaces), 100, 'a chain of 100 levels is accepted');
select throws_ok(
  $$select lifecycle_test.create_namespace((select id from lifecycle.namespaces where cardinality(traversal_ids) = 100), 'project', 'too-deep')$$,
  'NS010', 'a namespace cannot be deeper than 100 levels', 'the 101st level is refused with NS010');
select is((select count(*)::int from lifecycle.namespaces), 100, 'nothing was added');

select * from finish();
rollback;
