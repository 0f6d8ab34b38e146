begin;
select plan(4);

-- Valid settings are stored: the grace period at both bounds (1 and 90 days), and other values in range.
select lives_ok($$update lifecycle.settings set deletion_adjourned_period_days = 1$$,
                'a grace period of 1 day is accepted');
select lives_ok($$update lifecycle.settings set deletion_adjourned_period_days = 90$$,
                'a grace period of 90 days is accepted');
select lives_ok(
  $$update lifecycle.settings
       set transfer_request_ttl = interval '3 days', rename_limit = 10, rename_window = interval '7 days',
           sweep_batch_size = 50, hard_delete_batch_size = 500, delete_now_allowed = false$$,
  'several values in range are accepted at once'
);
select results_eq(
  $$select deletion_adjourned_period_days, transfer_request_ttl, rename_limit, rename_window, sweep_batch_size,
           hard_delete_batch_size, delete_now_allowed
      from lifecycle.settings$$,
  $$values (90, interval '3 days', 10, interval '7 days', 50, 500, false)$$,
  'the settings hold the new values'
);

select * from finish();
rollback;
