begin;
select plan(4);

-- Uniqueness is among siblings only: the same path below different parents is fine, and a child
-- may have its parent's path.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(null, 'organization', 'beta');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');

select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site')$$, lifecycle_test.id_of('acme')),
  'acme/site can be created'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'site')$$, lifecycle_test.id_of('beta')),
  'beta/site can be created as well'
);
select lives_ok(
  format($$select lifecycle_test.create_namespace(%s, 'project', 'eng')$$, lifecycle_test.id_of('acme/eng')),
  'acme/eng/eng can be created: a child may have its parent''s path'
);
select lives_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'site', null)$$, lifecycle_test.id_of('acme/eng/eng')),
  'acme/eng/eng can be renamed to site although acme/site exists'
);

select * from finish();
rollback;
