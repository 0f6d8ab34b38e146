-- Cancel a pending transfer request: the requester always may, others need the 'transfer_cancel'
-- level on the namespace. NS009 when the request is no longer pending (an accept won the race).
create or replace function lifecycle.namespace_transfer_cancel(id bigint, actor_id bigint)
returns table (request_id bigint, status text)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  r lifecycle.transfer_requests;
  refusal record;
begin
  r := lifecycle.transfer_request_lock_open(id, 'canceled');
  if actor_id is distinct from r.requested_by then
    select * into refusal
      from lifecycle.actor_refusal(r.namespace_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = r.namespace_id),
             actor_id, (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_cancel'),
             'cancel transfers of this namespace');
    if found then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
    end if;
  end if;
  update lifecycle.transfer_requests t set status = 'canceled', decided_by = actor_id, decided_at = pg_catalog.now()
   where t.id = r.id;
  return query select r.id, 'canceled'::text;
end
$$;
