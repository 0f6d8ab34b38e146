-- Locks a transfer request (step 0 of the global lock order, namespace_lock_path) and returns it.
-- NS004 when it does not exist.
create or replace function lifecycle.transfer_request_lock(request_id bigint)
returns lifecycle.transfer_requests
language plpgsql
set search_path to ''
as $$
declare
  r lifecycle.transfer_requests;
begin
  select * into r from lifecycle.transfer_requests t where t.id = request_id for update;
  if not found then
    raise exception using errcode = 'NS004', message = 'transfer request not found',
      detail = pg_catalog.format('request_id=%s', request_id), hint = 'Check the request id.';
  end if;
  return r;
end
$$;
