begin;
select plan(5);

-- docs/design.md §5: at most 5 path changes per namespace per 30 days (lifecycle.settings rename_limit and
-- rename_window, by default). The sixth within the window is refused with NS008.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'p0');

select results_eq(
  $$select rename_limit, rename_window from lifecycle.settings$$,
  $$values (5, interval '30 days')$$,
  'the defaults are 5 renames per 30 days'
);
select lifecycle.namespace_rename(p.id, 'p' || i, null)
  from (select lifecycle_test.id_of('acme/p0') as id) p, generate_series(1, 5) i;
select is(
  (select count(*) from lifecycle.namespace_redirects where namespace_id = lifecycle_test.id_of('acme/p5')),
  5::bigint,
  'five renames went through'
);
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'p6', null)$$, lifecycle_test.id_of('acme/p5')),
  'NS008', 'namespace renamed 5 times in the last 30 days, the limit',
  'the sixth rename within 30 days is refused'
);
select is(
  (select path from lifecycle.namespaces where id = lifecycle_test.id_of('acme/p5')),
  'p5',
  'the refused rename left the path as it was'
);
select is(
  (select count(*) from lifecycle.namespace_redirects),
  5::bigint,
  'the refused rename wrote no redirect'
);

select * from finish();
rollback;
