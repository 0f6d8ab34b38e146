begin;
select plan(13);

-- lifecycle.settings is validated on every write (settings_validate): each value out of its range
-- is refused with NS010, and the row keeps its values.
select throws_ok($$update lifecycle.settings set deletion_adjourned_period_days = 0$$, 'NS010', 'invalid settings',
                 'a deletion grace period of 0 days is refused');
select throws_ok($$update lifecycle.settings set deletion_adjourned_period_days = 91$$, 'NS010', 'invalid settings',
                 'a deletion grace period of 91 days is refused');
select throws_ok($$update lifecycle.settings set deletion_adjourned_period_days = null$$, 'NS010', 'invalid settings',
                 'a missing deletion grace period is refused');
select throws_ok($$update lifecycle.settings set rename_limit = 0$$, 'NS010', 'invalid settings',
                 'a rename limit of 0 is refused');
select throws_ok($$update lifecycle.settings set rename_limit = -1$$, 'NS010', 'invalid settings',
                 'a negative rename limit is refused');
select throws_ok($$update lifecycle.settings set rename_window = interval '0'$$, 'NS010', 'invalid settings',
                 'a rename window of zero is refused');
select throws_ok($$update lifecycle.settings set transfer_request_ttl = interval '0'$$, 'NS010', 'invalid settings',
                 'a transfer request TTL of zero is refused');
select throws_ok($$update lifecycle.settings set transfer_request_ttl = interval '-1 day'$$, 'NS010', 'invalid settings',
                 'a negative transfer request TTL is refused');
select throws_ok($$update lifecycle.settings set sweep_batch_size = 0$$, 'NS010', 'invalid settings',
                 'a sweep batch size of 0 is refused');
select throws_ok($$update lifecycle.settings set hard_delete_batch_size = 0$$, 'NS010', 'invalid settings',
                 'a hard-delete batch size of 0 is refused');
select throws_ok($$update lifecycle.settings set delete_now_allowed = null$$, 'NS010', 'invalid settings',
                 'a missing delete_now_allowed is refused');
select throws_ok($$insert into lifecycle.settings (singleton, rename_limit) values (true, 0)$$, 'NS010', 'invalid settings',
                 'an insert with an out-of-range value is refused as well');
select results_eq(
  $$select deletion_adjourned_period_days, transfer_request_ttl, rename_limit, rename_window, sweep_batch_size,
           hard_delete_batch_size, delete_now_allowed
      from lifecycle.settings$$,
  $$values (7, interval '7 days', 5, interval '30 days', 100, 1000, true)$$,
  'the refused updates left the defaults in place'
);

select * from finish();
rollback;
