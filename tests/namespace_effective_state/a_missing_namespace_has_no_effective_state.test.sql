begin;
select plan(1);

select is_empty(
  $$select * from lifecycle.namespace_effective_state(-1)$$,
  'namespace_effective_state of a namespace that does not exist returns no row'
);

select * from finish();
rollback;
