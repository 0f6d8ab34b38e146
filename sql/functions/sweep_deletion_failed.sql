-- A hard delete failed: requeue the namespace (deletion_failed: back to deletion_scheduled) with
-- its attempt count raised and last_error, as the system. Returns the new count and whether it
-- reached max_attempts: then the sweep no longer picks it up and reports it as stuck each run,
-- instead of retrying it forever. A namespace no longer deletion_in_progress is left alone.
create or replace function lifecycle.sweep_deletion_failed(namespace_id bigint, error text, max_attempts int)
returns table (attempt_count int, stuck boolean)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  attempts int;
begin
  ns := lifecycle.namespace_lock(namespace_id);
  select coalesce((d.state_metadata ->> 'attempt_count')::int, 0) + 1 into attempts
    from lifecycle.namespace_details d where d.namespace_id = ns.id;
  attempts := coalesce(attempts, 1);
  if ns.state = lifecycle.state_code('deletion_in_progress') then
    perform lifecycle.namespace_change_state(ns.id, null, 'deletion_failed', null::bigint,
      pg_catalog.jsonb_build_object('last_error', pg_catalog.left(coalesce(error, 'unknown error'), 2000),
                                    'attempt_count', attempts));
  end if;
  return query select attempts, attempts >= max_attempts;
end
$$;
