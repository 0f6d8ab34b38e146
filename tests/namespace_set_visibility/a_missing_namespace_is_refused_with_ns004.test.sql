begin;
select plan(1);

select throws_ok(
  $$select * from lifecycle.namespace_set_visibility((select coalesce(max(id), 0) + 1000 from lifecycle.namespaces), 'public', null)$$,
  'NS004', 'namespace not found',
  'changing the visibility of a missing namespace is refused with NS004'
);

select * from finish();
rollback;
