begin;
select plan(4);

-- Paths are unique among live siblings (docs/design.md §5): a second INSERT of the same path below the same
-- parent is refused with NS006, not with a unique violation; roots are siblings of one another.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');

select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'group', 'site')$$, lifecycle_test.id_of('acme')),
  'NS006', 'path acme/site is taken',
  'a second namespace called site below acme is refused'
);
select throws_ok(
  $$select lifecycle_test.create_namespace(null, 'user', 'acme')$$,
  'NS006', 'path acme is taken',
  'a second root called acme is refused'
);
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/shop'), 'archived', null);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'shop')$$, lifecycle_test.id_of('acme')),
  'NS006', 'path acme/shop is taken',
  'an archived sibling still holds its path'
);
select is(
  (select count(*) from lifecycle.namespaces where parent_id = lifecycle_test.id_of('acme')),
  2::bigint,
  'the refused inserts created nothing'
);

select * from finish();
rollback;
