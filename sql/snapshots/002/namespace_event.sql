-- Apply one of ADR 001's events (lifecycle.events). Events that return "to where it was"
-- (restore, transfer_done, unmaintain, deletion_failed) read the state kept in state_metadata.
create function lifecycle.namespace_event(
  namespace_id bigint,
  event text,
  actor_id bigint,
  metadata jsonb default '{}'
)
returns table (namespace_id bigint, from_state text, to_state text, effective_state text, changed boolean)
language sql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
  select c.namespace_id, c.from_state, c.to_state, c.effective_state, c.changed
    from lifecycle.namespace_change_state($1, null, $2, $3, $4) c
$$;

comment on function lifecycle.namespace_event(bigint, text, bigint, jsonb) is
  'Apply an ADR 001 event (lifecycle.events). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';
