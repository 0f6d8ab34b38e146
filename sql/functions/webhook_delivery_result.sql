-- What an attempt's response means for a delivery: 2xx delivered; a 4xx other than 408 and 429
-- failed for good; anything else (another status, or no response: status_code null with the
-- error) is retried after an exponential backoff with jitter (backoff doubling from the first
-- retry, at most an hour, times 0.5 to 1), until max_attempts: then dead. Returns the new status.
create or replace function lifecycle.webhook_delivery_result(delivery_id bigint, status_code int, error text, max_attempts int,
                                                  backoff interval)
returns text
language sql
security definer
set search_path to ''
as $$
  update lifecycle.webhook_deliveries d
     set attempts = d.attempts + 1,
         last_status_code = status_code,
         last_error = pg_catalog.left(error, 2000),
         status = case
           when status_code between 200 and 299 then 'delivered'
           when status_code between 400 and 499 and status_code not in (408, 429) then 'failed'
           when d.attempts + 1 >= max_attempts then 'dead'
           else 'pending' end,
         delivered_at = case when status_code between 200 and 299 then pg_catalog.now() end,
         next_attempt_at = pg_catalog.now()
           + least(interval '1 hour', backoff * pg_catalog.power(2, d.attempts))
             * (0.5 + pg_catalog.random() / 2)
   where d.id = delivery_id
  returning d.status
$$;
