begin;
select plan(3);

-- A namespace below a group scheduled for deletion is pending deletion as well: neither its current
-- path nor its old path (by the group's redirect) resolves.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'group', 'eng');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme/eng'), 'project', 'site');
select lifecycle.namespace_rename(lifecycle_test.id_of('acme/eng'), 'engineering', null);

select results_eq(
  $$select namespace_id, redirected from lifecycle.namespace_resolve('acme/eng/site')$$,
  format($$values (%s::bigint, true)$$, lifecycle_test.id_of('acme/engineering/site')),
  'before the deletion, the project''s old path resolves'
);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/engineering'), 'deletion_scheduled', null);
select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/eng/site')$$,
  'with the group scheduled for deletion, the project''s old path resolves to nothing'
);
select is_empty(
  $$select * from lifecycle.namespace_resolve('acme/engineering/site')$$,
  'nor does the project''s current path'
);

select * from finish();
rollback;
