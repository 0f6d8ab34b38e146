-- Decline a pending transfer request (by the 'transfer_accept' level on the new parent). The
-- namespace is untouched. NS009 when the request is no longer pending.
create or replace function lifecycle.namespace_transfer_decline(id bigint, actor_id bigint)
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
  r := lifecycle.transfer_request_lock_open(id, 'declined');
  select * into refusal
    from lifecycle.actor_refusal(r.to_parent_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = r.to_parent_id),
           actor_id, (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_accept'),
           'decline namespaces offered to this parent');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  update lifecycle.transfer_requests t set status = 'declined', decided_by = actor_id, decided_at = pg_catalog.now()
   where t.id = r.id;
  return query select r.id, 'declined'::text;
end
$$;
