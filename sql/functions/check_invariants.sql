-- Every violation of the lifecycle's invariants, one row each with the rule it breaks and why:
--   transfer_below_pending_operation  a namespace transfer_in_progress below one that is
--                                     deletion_scheduled, deletion_in_progress or transfer_in_progress
--   traversal_ids_inconsistent        traversal_ids is not the parent's plus the namespace's own id
--   details_missing                   no namespace_details row
--   live_path_clash                   two live siblings (not pending deletion) share a path
--   history_count_mismatch            the gate counted state changes (namespaces.state_changes)
--                                     that have no history row, or history rows it did not count
--   state_without_history             the current state is not where the last history row led (or,
--                                     with no history, not an initial state)
--   history_chain_broken              a history row's from_state is not the previous row's to_state
--   in_progress_without_operation     a namespace in a state a transfer owns (transfer_in_progress)
--                                     with no accepted transfer request to finish it (a hard
--                                     delete needs no record beside its state: deletion_in_progress
--                                     is resumed from the row itself)
--   accepted_request_without_transfer a transfer request still accepted while its namespace is not
--                                     in transfer
-- Empty on a consistent database. It reads every row: for checks and tests, not for a request path.
create or replace function lifecycle.check_invariants()
returns table (namespace_id bigint, invariant text, reason text)
language sql
stable
security definer
set search_path to ''
as $$
  select n.id, 'transfer_below_pending_operation',
         pg_catalog.format('%s is transfer_in_progress below %s, which is %s', lifecycle.namespace_full_path(n.id),
                           lifecycle.namespace_full_path(a.id), lifecycle.state_name(a.state))
    from lifecycle.namespaces n
    join lifecycle.namespaces a on a.id = any (n.traversal_ids[1:pg_catalog.cardinality(n.traversal_ids) - 1])
   where lifecycle.state_operation(n.state) = 'transfer'
     and (not lifecycle.state_path_live(a.state) or lifecycle.state_operation(a.state) is not null)
  union all
  select n.id, 'traversal_ids_inconsistent',
         pg_catalog.format('traversal_ids %s, parent %s has %s', n.traversal_ids, n.parent_id, p.traversal_ids)
    from lifecycle.namespaces n
    left join lifecycle.namespaces p on p.id = n.parent_id
   where n.traversal_ids is distinct from coalesce(p.traversal_ids, '{}') || n.id
  union all
  select n.id, 'details_missing', 'no lifecycle.namespace_details row'
    from lifecycle.namespaces n
   where not exists (select from lifecycle.namespace_details d where d.namespace_id = n.id)
  union all
  select n.id, 'live_path_clash',
         pg_catalog.format('path %s is held by %s live siblings', n.path, c.holders)
    from lifecycle.namespaces n
    join (select coalesce(x.parent_id, 0) as parent, x.path, count(*) as holders
            from lifecycle.namespaces x where lifecycle.state_path_live(x.state)
           group by 1, 2 having count(*) > 1) c
      on c.parent = coalesce(n.parent_id, 0) and c.path = n.path and lifecycle.state_path_live(n.state)
  union all
  select n.id, 'history_count_mismatch',
         pg_catalog.format('%s state changes counted, %s history rows', n.state_changes, coalesce(h.rows, 0))
    from lifecycle.namespaces n
    left join (select u.namespace_id, count(*) as rows from lifecycle.namespace_state_updates u group by 1) h
      on h.namespace_id = n.id
   where n.state_changes <> coalesce(h.rows, 0)
  union all
  select n.id, 'state_without_history',
         case when last.to_state is null
           then pg_catalog.format('state %s without any history row, and not an initial state', lifecycle.state_name(n.state))
           else pg_catalog.format('state %s, but the last history row led to %s', lifecycle.state_name(n.state),
                                  lifecycle.state_name(last.to_state)) end
    from lifecycle.namespaces n
    left join lateral (select u.to_state from lifecycle.namespace_state_updates u
                        where u.namespace_id = n.id order by u.id desc limit 1) last on true
   where (last.to_state is not null and last.to_state <> n.state)
      or (last.to_state is null and not exists (select from lifecycle.state_transitions t
                                                 where t.from_state is null and t.to_state = n.state))
  union all
  select c.namespace_id, 'history_chain_broken',
         pg_catalog.format('history row %s goes from %s, but the row before it led to %s', c.id,
                           lifecycle.state_name(c.from_state), lifecycle.state_name(c.previous_to))
    from (select u.id, u.namespace_id, u.from_state,
                 pg_catalog.lag(u.to_state) over (partition by u.namespace_id order by u.id) as previous_to
            from lifecycle.namespace_state_updates u) c
   where c.previous_to is not null and c.previous_to <> c.from_state
  union all
  select n.id, 'in_progress_without_operation',
         pg_catalog.format('%s is %s, but no accepted transfer request moves it', lifecycle.namespace_full_path(n.id), s.name)
    from lifecycle.namespaces n
    join lifecycle.states s on s.code = n.state
   where s.operation = 'transfer'
     and not exists (select from lifecycle.transfer_requests r where r.namespace_id = n.id and r.status = 'accepted')
  union all
  select r.namespace_id, 'accepted_request_without_transfer',
         pg_catalog.format('transfer request %s is accepted, but %s is %s', r.id, lifecycle.namespace_full_path(n.id), s.name)
    from lifecycle.transfer_requests r
    join lifecycle.namespaces n on n.id = r.namespace_id
    join lifecycle.states s on s.code = n.state
   where r.status = 'accepted' and s.operation is distinct from 'transfer'
$$;

comment on function lifecycle.check_invariants() is
  'Every violation of the lifecycle invariants (empty when consistent); reads every row.';
