-- Why a settings row is refused, or null when every value is in range.
create function lifecycle.settings_refusal(s lifecycle.settings)
returns text
language sql
immutable
set search_path to ''
as $$
  select case
    when s.deletion_adjourned_period_days is null or s.deletion_adjourned_period_days not between 1 and 90
      then pg_catalog.format('deletion_adjourned_period_days must be 1 to 90, not %s', s.deletion_adjourned_period_days)
    when s.transfer_request_ttl is null or s.transfer_request_ttl < interval '1 minute' or s.transfer_request_ttl > interval '90 days'
      then pg_catalog.format('transfer_request_ttl must be 1 minute to 90 days, not %s', s.transfer_request_ttl)
    when s.rename_limit is null or s.rename_limit not between 1 and 1000
      then pg_catalog.format('rename_limit must be 1 to 1000, not %s', s.rename_limit)
    when s.rename_window is null or s.rename_window < interval '1 minute' or s.rename_window > interval '365 days'
      then pg_catalog.format('rename_window must be 1 minute to 365 days, not %s', s.rename_window)
    when s.sweep_batch_size is null or s.sweep_batch_size not between 1 and 10000
      then pg_catalog.format('sweep_batch_size must be 1 to 10000, not %s', s.sweep_batch_size)
    when s.hard_delete_batch_size is null or s.hard_delete_batch_size not between 1 and 100000
      then pg_catalog.format('hard_delete_batch_size must be 1 to 100000, not %s', s.hard_delete_batch_size)
    when s.delete_now_allowed is null
      then 'delete_now_allowed must be true or false'
  end
$$;
