begin;
select plan(1);

select throws_ok(
  $$select * from lifecycle.namespace_available_transitions(-1, 1001)$$,
  'NS004', 'namespace not found',
  'namespace_available_transitions of a namespace that does not exist is NS004'
);

select * from finish();
rollback;
