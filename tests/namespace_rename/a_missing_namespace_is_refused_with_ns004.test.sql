begin;
select plan(2);

-- Renaming an id that names no namespace is NS004; a null id is an invalid argument (NS010).
select throws_ok(
  $$select * from lifecycle.namespace_rename((select coalesce(max(id), 0) + 1000 from lifecycle.namespaces), 'site', null)$$,
  'NS004', 'namespace not found',
  'a rename of a missing namespace is refused with NS004'
);
select throws_ok(
  $$select * from lifecycle.namespace_rename(null, 'site', null)$$,
  'NS010', 'id is required',
  'a rename without an id is refused with NS010'
);

select * from finish();
rollback;
