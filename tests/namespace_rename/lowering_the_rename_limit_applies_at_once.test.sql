begin;
select plan(3);

-- lifecycle.settings.rename_limit is read on every call: lowering it takes effect for the next
-- rename, counting the renames already made.
select lifecycle_test.create_namespace(null, 'organization', 'acme');
select lifecycle_test.create_namespace(lifecycle_test.id_of('acme'), 'project', 'p0');
select lifecycle.namespace_rename(p.id, 'p' || i, null)
  from (select lifecycle_test.id_of('acme/p0') as id) p, generate_series(1, 2) i;

select lives_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'p3', null)$$, lifecycle_test.id_of('acme/p2')),
  'with the default limit of 5, a third rename goes through'
);
update lifecycle.settings set rename_limit = 3;
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'p4', null)$$, lifecycle_test.id_of('acme/p3')),
  'NS008', 'namespace renamed 3 times in the last 30 days, the limit',
  'with the limit lowered to 3, the fourth rename is refused'
);
update lifecycle.settings set rename_limit = 1;
select throws_ok(
  format($$select * from lifecycle.namespace_rename(%s, 'p4', null)$$, lifecycle_test.id_of('acme/p3')),
  'NS008', null,
  'with the limit lowered below the renames made, it is refused as well'
);

select * from finish();
rollback;
