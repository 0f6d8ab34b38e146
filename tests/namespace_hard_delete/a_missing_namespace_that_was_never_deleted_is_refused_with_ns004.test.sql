begin;
select plan(2);

select lifecycle_test.create_namespace(null, 'organization', 'acme');

select throws_ok(
  $$select * from lifecycle.namespace_hard_delete((select max(id) + 1000 from lifecycle.namespaces), 10)$$,
  'NS004', 'namespace not found',
  'an id that never existed is refused with NS004'
);
select throws_ok(
  $$select * from lifecycle.namespace_hard_delete(null, 10)$$,
  'NS010', 'namespace_id is required',
  'a null id is refused with NS010'
);

select * from finish();
rollback;
