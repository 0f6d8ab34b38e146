begin;
select plan(1);

select throws_ok(
  $$select * from lifecycle.namespace_event(-1, 'archive', null)$$,
  'NS004', 'namespace not found',
  'an event on a namespace that does not exist is NS004'
);

select * from finish();
rollback;
