-- A creation that never finished within creation_timeout is a fatal creation failure: the
-- namespace enters deletion_in_progress (deletion_start from creation_in_progress), as the
-- system, with last_error; the caller then runs the hard delete. 'skipped' when it finished or is
-- not old enough any more.
create or replace function lifecycle.sweep_abandoned_creation(namespace_id bigint, as_of timestamptz, creation_timeout interval)
returns table (outcome text, detail text)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
begin
  if not exists (select from lifecycle.namespaces n where n.id = namespace_id) then
    return query select 'skipped'::text, 'no longer exists'::text;
    return;
  end if;
  ns := lifecycle.namespace_lock(namespace_id);
  if ns.state <> lifecycle.state_code('creation_in_progress') or ns.updated_at >= as_of - creation_timeout then
    return query select 'skipped'::text, pg_catalog.format('state %s since %s', lifecycle.state_name(ns.state), ns.updated_at);
    return;
  end if;
  perform lifecycle.namespace_change_state(ns.id, null, 'deletion_start', null::bigint,
    pg_catalog.jsonb_build_object('last_error',
      pg_catalog.format('creation did not finish within %s (started %s)', creation_timeout, ns.created_at)));
  return query select 'deleting'::text, pg_catalog.format('creation_in_progress since %s', ns.updated_at);
end
$$;
