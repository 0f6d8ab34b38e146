begin;
select plan(3);

-- The levels are lifecycle.visibility_levels' names: private, internal, public. Anything else is NS010.
select lifecycle_test.create_namespace(null, 'organization', 'acme');

select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'secret', null)$$, lifecycle_test.id_of('acme')),
  'NS010', 'unknown visibility ''secret''',
  'an unknown level is refused'
);
select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, 'Public', null)$$, lifecycle_test.id_of('acme')),
  'NS010', 'unknown visibility ''Public''',
  'level names are case-sensitive'
);
select throws_ok(
  format($$select * from lifecycle.namespace_set_visibility(%s, null, null)$$, lifecycle_test.id_of('acme')),
  'NS010', null,
  'a null level is refused'
);

select * from finish();
rollback;
