-- State → legacy (docs/design.md §10): after any change of state of a namespace, whatever its
-- write path (the API, a raw UPDATE, the sweeper, a transfer, a change the bridge itself carried
-- over), every bridge's legacy data is written to say what the new state says
-- (legacy_bridge_sync), in the same transaction. Not while legacy_bridge_source carries a legacy
-- statement over (lifecycle.legacy_bridge_applying): one statement may turn on several bridged
-- conditions, each a change of state, and writing the legacy row back after the first would
-- undo the others before they are read; legacy_bridge_source writes back once, at the end.
-- Created on lifecycle.namespaces by lifecycle.legacy_bridge_add (dropped with the last bridge);
-- not for a backfill, which writes no legacy data.
create function lifecycle.legacy_bridge_state()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  if new.state = old.state or pg_catalog.current_setting('lifecycle.legacy_bridge_applying', true) = 'on' then
    return null;
  end if;
  perform lifecycle.legacy_bridge_sync(new.id);
  return null;
end
$$;
