begin;
select plan(6);

-- docs/design.md §5: soft delete frees the path for reuse among siblings during the grace period. A
-- namespace scheduled for deletion, or being deleted, does not hold its path: a new namespace may
-- be created with it, or a sibling renamed to it.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'site');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'shop');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'other');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/site'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/shop'), 'deletion_scheduled', null);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/shop'), 'deletion_in_progress', null);

select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site')$$, lifecycle_test.id_of('acme')),
  'a new project may take the path of a sibling scheduled for deletion'
);
select results_eq(
  format($$select state from lifecycle.namespaces where parent_id = %s and path = 'site' order by id$$,
         lifecycle_test.id_of('acme')),
  $$values (2::smallint), (0::smallint)$$,
  'acme/site now names two namespaces: the scheduled one and the new live one'
);
select lives_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'shop', null)$$, lifecycle_test.id_of('acme/other')),
  'a sibling may be renamed to the path of a namespace being deleted'
);
select is(
  (select count(*) from lifecycle.namespaces where parent_id = lifecycle_test.id_of('acme') and path = 'shop'),
  2::bigint,
  'acme/shop names the deleting namespace and the renamed one'
);
select throws_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site')$$, lifecycle_test.id_of('acme')),
  'NS006', 'path acme/site is taken',
  'once a live namespace took the path again, a third one is refused'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'other')$$, lifecycle_test.id_of('acme')),
  'the path the renamed sibling left is free again'
);

select * from finish();
rollback;
