-- The first step of moving an organization to another cluster (docs/scaling.md, Cells; cmd/orgmove):
-- from now on every write to it here is refused with NS011 (namespace_lock_path,
-- organization_moving_guard), while reads go on, so that what organization_export reads is what
-- the target gets. The organization is locked like a change of it (namespace_lock: its row, then
-- its lock row exclusively), so every change below it already running commits first and is
-- exported, and those that come after wait for this and are refused; the mark
-- (lifecycle.organization_moves, direction out) commits with this call. The session that calls it
-- holds the move (organization_move_claim). Called again for an organization this cluster is
-- already moving out, from another session once the first is gone: resumes it (resumed = true).
--
-- Refused: NS004 no live organization at the path (one that has moved out says where); NS010 a
-- root that is not an organization; NS011 another live session moving it; NS001 the organization
-- itself, NS003 a namespace below it, in a state an operation or the host is in the middle of
-- (transfer_in_progress, deletion_in_progress: an operation's; creation_in_progress), or with an
-- open (pending or accepted) transfer request from or into the organization: finish or cancel
-- them first (an expiry, a decline or a cancel of a request moved meanwhile would be lost).
create or replace function lifecycle.organization_move_out_start(path text, peer text)
returns table (organization_id bigint, resumed boolean, namespaces bigint)
language plpgsql
-- Definer: it locks, reads and writes what only the schema's owner may.
security definer
set search_path to ''
as $$
#variable_conflict use_column
declare
  org lifecycle.namespaces;
  m lifecycle.organization_moves;
  gone lifecycle.organization_moves;
  busy record;
  me oid := (select a.usesysid from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
begin
  if organization_move_out_start.peer is null or pg_catalog.btrim(organization_move_out_start.peer) = '' then
    raise exception using errcode = 'NS010', message = 'peer is required',
      detail = 'peer=', hint = 'Name the cluster the organization moves to (cmd/orgmove passes its host, port and database).';
  end if;
  select * into org from lifecycle.namespaces n
   where n.parent_id is null and n.path = organization_move_out_start.path and lifecycle.state_path_live(n.state);
  if not found then
    select * into gone from lifecycle.organization_moves o
     where o.path = organization_move_out_start.path and o.direction = 'out' and o.finished_at is not null
     order by o.finished_at desc limit 1;
    if found then
      raise exception using errcode = 'NS004', message = 'organization has moved to another cluster',
        detail = pg_catalog.format('path=%s organization_id=%s to=%s at=%s', gone.path, gone.organization_id, gone.peer, gone.finished_at),
        hint = pg_catalog.format('The organization is served by %s.', gone.peer);
    end if;
    raise exception using errcode = 'NS004', message = 'organization not found',
      detail = pg_catalog.format('path=%s', organization_move_out_start.path),
      hint = 'Pass the path of a live organization (a root; not one scheduled for deletion).';
  end if;
  if not lifecycle.namespace_type_root_only(org.type) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('only an organization moves between clusters, not a %s', org.type),
      detail = pg_catalog.format('namespace_id=%s path=%s type=%s', org.id, org.path, org.type),
      hint = 'A group or project moves within a cluster by a transfer.';
  end if;

  select * into m from lifecycle.organization_moves o where o.organization_id = org.id;
  if found and m.direction = 'out' and m.finished_at is null then
    m := lifecycle.organization_move_claim(org.id);
    return query
      select org.id, true, (select pg_catalog.count(*) from lifecycle.namespaces n
                             where n.traversal_ids >= array[org.id] and n.traversal_ids < array[org.id + 1]);
    return;
  end if;

  -- Steps 0-2 of the global lock order, as for a change of the organization: every change below it
  -- holds its lock row shared until it commits.
  org := lifecycle.namespace_lock(org.id);

  select n.id, s.name as state, lifecycle.namespace_full_path(n.id) as full_path into busy
    from lifecycle.namespaces n
    join lifecycle.states s on s.code = n.state
   where n.traversal_ids >= array[org.id] and n.traversal_ids < array[org.id + 1]
     and lifecycle.state_is_own(n.state) and (s.operation is not null or s.being_created)
   order by n.traversal_ids
   limit 1;
  if found then
    raise exception using errcode = case when busy.id = org.id then 'NS001' else 'NS003' end,
      message = pg_catalog.format('cannot move organization %s: %s is %s', org.path, busy.full_path, busy.state),
      detail = pg_catalog.format('organization_id=%s namespace_id=%s state=%s', org.id, busy.id, busy.state),
      hint = 'Let the operation finish (or the creation end) first, then move the organization.';
  end if;
  select r.id, r.status, r.namespace_id, r.to_parent_id into busy
    from lifecycle.transfer_requests r
    join lifecycle.namespaces n on n.id in (r.namespace_id, r.to_parent_id)
   where r.status in ('pending', 'accepted')
     and n.traversal_ids >= array[org.id] and n.traversal_ids < array[org.id + 1]
   order by r.id
   limit 1;
  if found then
    raise exception using errcode = 'NS003',
      message = pg_catalog.format('cannot move organization %s: transfer request %s is %s', org.path, busy.id, busy.status),
      detail = pg_catalog.format('organization_id=%s request_id=%s status=%s namespace_id=%s to_parent_id=%s', org.id, busy.id,
                                 busy.status, busy.namespace_id, busy.to_parent_id),
      hint = 'Cancel or decline the request (or let it complete or expire) first, then move the organization.';
  end if;

  -- An organization moved in earlier keeps where it came from, for a cancel.
  insert into lifecycle.organization_moves as o (organization_id, path, direction, peer, started_at, finished_at,
                                                 mover_pid, mover_role, summary)
  values (org.id, org.path, 'out', organization_move_out_start.peer, pg_catalog.now(), null, pg_catalog.pg_backend_pid(), me,
          coalesce((select pg_catalog.jsonb_build_object('previous', pg_catalog.to_jsonb(m)) where m.organization_id is not null), '{}'))
  on conflict (organization_id) do update
     set path = excluded.path, direction = excluded.direction, peer = excluded.peer, started_at = excluded.started_at,
         finished_at = null, mover_pid = excluded.mover_pid, mover_role = excluded.mover_role,
         summary = excluded.summary;
  return query
    select org.id, false, (select pg_catalog.count(*) from lifecycle.namespaces n
                            where n.traversal_ids >= array[org.id] and n.traversal_ids < array[org.id + 1]);
end
$$;
