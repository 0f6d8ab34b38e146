begin;
select plan(3);

-- Every accepted change stamps updated_at with the time of the change. The row was written by the
-- migration, in an earlier transaction; this transaction's updates stamp it with its now(), even
-- when the statement tries to set another value.
select ok(
  (select updated_at from lifecycle.settings) < now(),
  'before the change, updated_at is older than this transaction'
);
update lifecycle.settings set rename_limit = 6;
select is(
  (select updated_at from lifecycle.settings),
  now(),
  'changing rename_limit stamps updated_at with now()'
);
update lifecycle.settings set sweep_batch_size = 200, updated_at = now() - interval '1 day';
select is(
  (select updated_at from lifecycle.settings),
  now(),
  'an explicit older updated_at in the statement is overridden with now()'
);

select * from finish();
rollback;
