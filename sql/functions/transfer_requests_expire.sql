-- Expire pending transfer requests whose expires_at is not after as_of (accept refuses them too) (the sweeper; bulk, one
-- statement). Requests locked by an accept, decline or cancel in flight are skipped: that call
-- decides them. Returns how many expired; each row's terminal status is its audit fact.
create or replace function lifecycle.transfer_requests_expire(as_of timestamptz default pg_catalog.now())
returns int
language sql
security definer
set search_path to ''
as $$
  with due as (
    select t.id from lifecycle.transfer_requests t
     where t.status = 'pending' and t.expires_at <= as_of
       for update skip locked
  ), expired as (
    update lifecycle.transfer_requests t set status = 'expired', decided_at = pg_catalog.now()
      from due where t.id = due.id
    returning 1
  )
  select count(*)::int from expired
$$;
