-- Take up to batch_size due webhook deliveries for sending: each is leased (next_attempt_at moved
-- lease ahead) so that another delivery worker, or this one after a crash, retries it only once
-- the lease is over. SKIP LOCKED: workers never wait for each other.
create or replace function lifecycle.webhook_deliveries_claim(batch_size int, lease interval)
returns table (delivery_id bigint, url text, secret text, body jsonb, idempotency_key text, attempts int)
language sql
security definer
set search_path to ''
as $$
  with due as (
    select d.id from lifecycle.webhook_deliveries d
     where d.status = 'pending' and d.next_attempt_at <= pg_catalog.now()
     order by d.next_attempt_at, d.id
     limit batch_size
       for update skip locked
  ), leased as (
    update lifecycle.webhook_deliveries d set next_attempt_at = pg_catalog.now() + lease
      from due where d.id = due.id
    returning d.id, d.webhook_id, d.body, d.idempotency_key, d.attempts
  )
  select l.id, w.url, w.secret, l.body, l.idempotency_key, l.attempts
    from leased l join lifecycle.webhooks w on w.id = l.webhook_id
$$;
