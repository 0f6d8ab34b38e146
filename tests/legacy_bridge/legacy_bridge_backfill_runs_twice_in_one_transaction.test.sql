-- A backfill leaves nothing behind that stops another in the same transaction.
begin;
select plan(2);
select lifecycle_test.create_gitlab_legacy();

select is((select backfilled from lifecycle.legacy_bridge_backfill()), 0::bigint, 'a first backfill (nothing to set)');
select is((select backfilled from lifecycle.legacy_bridge_backfill()), 0::bigint, 'a second, in the same transaction');

select * from finish();
rollback;
