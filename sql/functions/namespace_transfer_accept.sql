-- Accept a pending transfer request (by the 'transfer_accept' level on the new parent): the
-- namespace enters transfer_in_progress and the call returns at once; the move runs asynchronously
-- (namespace_transfer_execute: the syncer, the sweeper, or any client). Refused: NS004, NS005,
-- NS009 (not pending, or expired), and what the target check and transfer_start's gate refuse.
-- Serialised with decline, cancel and expiry on the request's row lock: one of them wins.
create or replace function lifecycle.namespace_transfer_accept(id bigint, actor_id bigint)
returns table (request_id bigint, status text, namespace_id bigint)
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
  r := lifecycle.transfer_request_lock_open(id, 'accepted');
  select * into refusal
    from lifecycle.actor_refusal(r.to_parent_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = r.to_parent_id),
           actor_id, (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_accept'),
           'accept namespaces below this parent');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  perform lifecycle.transfer_accept_locked(r, actor_id);
  return query select r.id, 'accepted'::text, r.namespace_id;
end
$$;
