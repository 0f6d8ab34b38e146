-- Accepts a pending, locked transfer request on behalf of actor_id (authorized on the target by the
-- caller): the target is checked again, the request becomes accepted and the namespace enters
-- transfer_in_progress through the state gate, which checks its guards and that the requester
-- still may transfer it (the state change is the requester's: the namespace is still theirs). The
-- move itself is namespace_transfer_execute's; this returns at once.
create or replace function lifecycle.transfer_accept_locked(r lifecycle.transfer_requests, actor_id bigint)
returns void
language plpgsql
set search_path to ''
as $$
declare
  refusal record;
begin
  if r.expires_at <= pg_catalog.now() then
    raise exception using errcode = 'NS009', message = 'transfer request expired',
      detail = pg_catalog.format('request_id=%s expires_at=%s', r.id, r.expires_at),
      hint = 'Request the transfer again.';
  end if;
  select * into refusal from lifecycle.transfer_target_refusal(r.namespace_id, r.to_parent_id);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  update lifecycle.transfer_requests t
     set status = 'accepted', decided_by = actor_id, decided_at = pg_catalog.now()
   where t.id = r.id;
  -- The transfer's own code path (operation 'transfer'): transfer_in_progress is entered only with
  -- the accepted request written just above (transition_refusal, lifecycle.states.operation_enters).
  perform lifecycle.namespace_change_state(r.namespace_id, null, 'transfer_start', r.requested_by,
                                           pg_catalog.jsonb_build_object('correlation_id', 'transfer-request-' || r.id),
                                           'transfer');
end
$$;
