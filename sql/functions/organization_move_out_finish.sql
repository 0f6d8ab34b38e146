-- The last step of moving an organization to another cluster (docs/scaling.md, Cells;
-- cmd/orgmove), once the target has committed it (organization_move_in): this cluster lets it go.
-- Its namespaces leave, and with them their details, memberships, redirects, webhooks (and their
-- pending deliveries), transfer requests and rows of lifecycle.effective_states; its history rows
-- too. Its path is free here from then on, and namespace_resolve finds nothing at it. The mark
-- stays, finished, saying where the organization went (organization_move_out_start refuses its
-- path with NS004 naming the cluster that serves it). One organization_moved_out fact records it
-- (nobody is notified: its memberships are gone). Kept here: the audit rows, notifications,
-- webhook deliveries already made, and the snapshots of earlier hard deletes (organization_export
-- says why); removed without being carried: closed transfer requests that cross the
-- organization's edge (counted as transfer_request_dropped). Only the session holding the move
-- (organization_move_claim). Returns how many rows of each kind left; nothing when the move was
-- finished already.
create or replace function lifecycle.organization_move_out_finish(organization_id bigint)
returns table (kind text, removed bigint)
language plpgsql
-- Definer: it deletes what only the schema's owner may.
security definer
set search_path to ''
as $$
#variable_conflict use_column
declare
  org constant bigint := organization_move_out_finish.organization_id;
  m lifecycle.organization_moves;
  noted text;
  removed_rows jsonb := '{}'::jsonb;
  n bigint;
begin
  if exists (select from lifecycle.organization_moves o
              where o.organization_id = org and o.direction = 'out' and o.finished_at is not null) then
    return;
  end if;
  m := lifecycle.organization_move_claim(org);

  select pg_catalog.count(*) into n
    from lifecycle.transfer_requests t
    join lifecycle.namespaces a on a.id = t.namespace_id
    join lifecycle.namespaces b on b.id = t.to_parent_id
   where (a.traversal_ids >= array[org] and a.traversal_ids < array[org + 1])
      <> (b.traversal_ids >= array[org] and b.traversal_ids < array[org + 1]);
  removed_rows := removed_rows || pg_catalog.jsonb_build_object('transfer_request_dropped', n);

  noted := lifecycle.transaction_flag_raise('importing')::text
           || pg_catalog.set_config('lifecycle.importing', 'on', true);
  -- Rows are deleted only below a deletion in progress (namespaces_deletion_guard): leaving this
  -- cluster, the organization is that, for the moment before its rows go. No history row, no
  -- fact: the state gate and record do not fire while importing is raised, and nobody sees it.
  update lifecycle.namespaces x set state = lifecycle.state_code('deletion_in_progress') where x.id = org;
  delete from lifecycle.namespace_state_updates u
   using lifecycle.namespaces x
   where u.namespace_id = x.id and x.traversal_ids >= array[org] and x.traversal_ids < array[org + 1];
  get diagnostics n = row_count;
  removed_rows := removed_rows || pg_catalog.jsonb_build_object('history', n);
  -- Details, memberships, redirects, webhooks, transfer requests: by their foreign keys. The
  -- organization last: the guard of each row below it looks for it (a row deleted earlier in the
  -- same statement is gone to the guard's query).
  delete from lifecycle.namespaces x where x.traversal_ids > array[org] and x.traversal_ids < array[org + 1];
  get diagnostics n = row_count;
  delete from lifecycle.namespaces x where x.id = org;
  removed_rows := removed_rows || pg_catalog.jsonb_build_object('namespace', n + 1);
  noted := lifecycle.transaction_flag_lower('importing')::text
           || pg_catalog.set_config('lifecycle.importing', '', true);

  update lifecycle.organization_moves o
     set finished_at = pg_catalog.now(), mover_pid = null, mover_role = null, summary = o.summary || removed_rows
   where o.organization_id = org;
  perform lifecycle.fact_emit('organization_moved_out', org, array[org], m.path, null,
                              pg_catalog.jsonb_build_object('to', m.peer, 'rows', removed_rows));
  return query select e.key, e.value::bigint from pg_catalog.jsonb_each_text(removed_rows) e order by e.key;
end
$$;
