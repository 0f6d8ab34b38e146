-- Offer a namespace to a new parent (docs/design.md §5). Who: the 'transfer_request' level of
-- lifecycle.operation_policies on the namespace. The request is pending until accepted, declined,
-- canceled or expired (lifecycle.settings.transfer_request_ttl). An actor who also holds the
-- 'transfer_accept' level on the new parent is accepted at once. Refused: NS004, NS005, NS009 (an
-- open request exists), the matrix and guards of transfer_start (NS001, NS002, NS003), and
-- transfer_target_refusal's NS002, NS006, NS010. Audit fact: the request row.
create or replace function lifecycle.namespace_transfer_request(namespace_id bigint, to_parent_id bigint, actor_id bigint)
returns table (request_id bigint, status text, expires_at timestamptz)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  r lifecycle.transfer_requests;
  refusal record;
begin
  if namespace_id is null or to_parent_id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id and to_parent_id are required',
      hint = 'Pass the namespace to move and its new parent.';
  end if;
  if actor_id is null then
    raise exception using errcode = 'NS010', message = 'actor_id is required',
      hint = 'A transfer is requested by a user: pass their id.';
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  select * into refusal
    from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor_id,
           (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_request'),
           'transfer this namespace');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  select * into r from lifecycle.transfer_requests t where t.namespace_id = ns.id and t.status in ('pending', 'accepted');
  if found then
    raise exception using errcode = 'NS009',
      message = pg_catalog.format('namespace already has an open transfer request (%s)', r.status),
      detail = pg_catalog.format('namespace_id=%s request_id=%s status=%s', ns.id, r.id, r.status),
      hint = 'Cancel the open request first, or wait for it to end.';
  end if;
  -- Fail early on what would refuse transfer_start at accept time, which is the transfer's own code
  -- path (transfer_accept_locked: operation 'transfer').
  -- (One row, all nulls when allowed.)
  select * into refusal
    from lifecycle.transition_refusal(ns.id, ns.traversal_ids, ns.state, lifecycle.state_code('transfer_in_progress'), actor_id,
                                      'transfer');
  if refusal.code is not null then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  select * into refusal from lifecycle.transfer_target_refusal(ns.id, to_parent_id);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;

  insert into lifecycle.transfer_requests (namespace_id, from_parent_id, to_parent_id, requested_by, expires_at)
  values (ns.id, ns.parent_id, to_parent_id, actor_id,
          pg_catalog.now() + (select s.transfer_request_ttl from lifecycle.settings s))
  returning * into r;

  -- An actor who owns both sides accepts their own offer.
  if not exists (select from lifecycle.actor_refusal(
                   to_parent_id, (select t.traversal_ids from lifecycle.namespaces t where t.id = to_parent_id), actor_id,
                   (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'transfer_accept'),
                   'accept')) then
    perform lifecycle.transfer_accept_locked(r, actor_id);
    r.status := 'accepted';
  end if;
  return query select r.id, r.status, r.expires_at;
end
$$;

comment on function lifecycle.namespace_transfer_request(bigint, bigint, bigint) is
  'Offer a namespace to a new parent; auto-accepted when the actor owns both sides. Errors: NS001-NS006 NS009 NS010.';
