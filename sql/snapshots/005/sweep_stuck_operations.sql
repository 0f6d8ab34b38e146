-- Operations the sweep must finish or report, at as_of: transfers and deletions in progress whose
-- state has not changed for stuck_after (the move is re-run, the delete resumed); creations in
-- progress older than creation_timeout (a fatal creation failure: deleted); deletions requeued
-- max_attempts times (reported as stuck). Ordered by kind, then age.
create function lifecycle.sweep_stuck_operations(
  as_of timestamptz,
  stuck_after interval,
  creation_timeout interval,
  max_attempts int
)
returns table (namespace_id bigint, kind text, full_path text, since timestamptz, attempt_count int, last_error text)
language sql
stable
set search_path to ''
as $$
  select n.id,
         case n.state when 5 then 'transfer' when 4 then 'deletion' when 3 then 'creation' else 'failed_deletion' end,
         lifecycle.namespace_full_path(n.id), n.updated_at,
         coalesce((d.state_metadata ->> 'attempt_count')::int, 0), d.state_metadata ->> 'last_error'
    from lifecycle.namespaces n
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   where n.state <> 0
     and ((n.state in (4, 5) and n.updated_at < as_of - stuck_after)
       or (n.state = 3 and n.updated_at < as_of - creation_timeout)
       or (n.state = 2 and coalesce((d.state_metadata ->> 'attempt_count')::int, 0) >= max_attempts))
   order by case n.state when 5 then 1 when 4 then 2 when 3 then 3 else 4 end, n.updated_at, n.id
$$;
