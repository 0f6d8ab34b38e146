-- Operations the sweep must finish or report, at as_of: namespaces in a state an operation owns
-- (lifecycle.state_operation: transfers and deletions in progress) whose state has not changed for
-- stuck_after (the move is re-run, the delete resumed); creations in progress
-- (state_being_created) older than creation_timeout (a fatal creation failure: deleted);
-- adjourned deletions (state_deletion_adjourned) requeued max_attempts times (reported as stuck).
-- Ordered by kind, then age.
create or replace function lifecycle.sweep_stuck_operations(
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
  select n.id, k.kind, lifecycle.namespace_full_path(n.id), n.updated_at,
         coalesce((d.state_metadata ->> 'attempt_count')::int, 0), d.state_metadata ->> 'last_error'
    from lifecycle.namespaces n
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   cross join lateral (
     select case lifecycle.state_operation(n.state)
              when 'transfer' then 'transfer'
              when 'hard_delete' then 'deletion'
              else case when lifecycle.state_being_created(n.state) then 'creation'
                        when lifecycle.state_deletion_adjourned(n.state) then 'failed_deletion' end
            end as kind
   ) k
   where lifecycle.state_is_own(n.state)
     and ((lifecycle.state_operation(n.state) is not null and n.updated_at < as_of - stuck_after)
       or (lifecycle.state_being_created(n.state) and n.updated_at < as_of - creation_timeout)
       or (lifecycle.state_deletion_adjourned(n.state)
           and coalesce((d.state_metadata ->> 'attempt_count')::int, 0) >= max_attempts))
   order by pg_catalog.array_position(array['transfer', 'deletion', 'creation', 'failed_deletion'], k.kind),
            n.updated_at, n.id
$$;
