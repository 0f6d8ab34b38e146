-- Locks a transfer request (step 0 of the global lock order) and returns it if it is still
-- pending; NS004 when it does not exist, NS009 when it is closed (accepted, declined, canceled,
-- expired, completed or failed): what accept, decline and cancel all need first.
create or replace function lifecycle.transfer_request_lock_open(request_id bigint, verb text)
returns lifecycle.transfer_requests
language plpgsql
set search_path to ''
as $$
declare
  r lifecycle.transfer_requests := lifecycle.transfer_request_lock(request_id);
begin
  if r.status <> 'pending' then
    raise exception using errcode = 'NS009', message = pg_catalog.format('transfer request is %s', r.status),
      detail = pg_catalog.format('request_id=%s status=%s', r.id, r.status),
      hint = pg_catalog.format('Only a pending request can be %s.', verb);
  end if;
  return r;
end
$$;
