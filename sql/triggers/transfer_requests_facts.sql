-- A transfer request's facts: transfer_requested when it is made, transfer_<status> at every
-- change of status (accepted, declined, canceled, expired, completed, failed), acted by the
-- requester or the one who decided (none for an expiry).
create or replace function lifecycle.transfer_requests_facts()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
as $$
declare
  ns lifecycle.namespaces;
begin
  if tg_op = 'UPDATE' and new.status = old.status then
    return null;
  end if;
  select * into ns from lifecycle.namespaces n where n.id = new.namespace_id;
  perform lifecycle.fact_emit(
    case when tg_op = 'INSERT' then 'transfer_requested' else 'transfer_' || new.status end,
    new.namespace_id, ns.traversal_ids, lifecycle.namespace_full_path(new.namespace_id),
    case when tg_op = 'INSERT' then new.requested_by else new.decided_by end,
    pg_catalog.jsonb_build_object('request_id', new.id, 'from_parent_id', new.from_parent_id,
                                  'to_parent_id', new.to_parent_id, 'to_parent_path', lifecycle.namespace_full_path(new.to_parent_id),
                                  'requested_by', new.requested_by, 'expires_at', new.expires_at,
                                  'last_error', new.last_error));
  return null;
end
$$;

create or replace trigger transfer_requests_facts
  after insert or update of status on lifecycle.transfer_requests
  for each row execute function lifecycle.transfer_requests_facts();
