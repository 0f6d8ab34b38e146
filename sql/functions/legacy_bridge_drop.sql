-- End the bridges of a legacy table at cutover (docs/design.md §10): its triggers go, and the
-- namespaces' trigger with the last bridge (legacy_bridge_unhook). The legacy data stays as it
-- is; the states are not touched. Returns how many bridges were dropped (0: the table had none).
create or replace function lifecycle.legacy_bridge_drop(source regclass)
returns int
language plpgsql
set search_path to ''
as $$
declare
  dropped int;
begin
  -- Its triggers are not of one fixed name: legacy_bridge_watch drops them and their WHEN
  -- function (the function too when the table is gone) once its rows are gone.
  dropped := lifecycle.legacy_bridge_unhook('lifecycle.legacy_bridges', legacy_bridge_drop.source, null,
                                            'lifecycle.namespaces', 'namespaces_5_legacy_bridge');
  perform lifecycle.legacy_bridge_watch(legacy_bridge_drop.source);
  return dropped;
end
$$;

comment on function lifecycle.legacy_bridge_drop(regclass) is
  'End the bridges of a legacy table (its trigger, and the namespaces'' with the last bridge); returns how many.';
