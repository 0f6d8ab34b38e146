-- End the bridges of a legacy table at cutover (docs/design.md §10): its triggers go, and the
-- namespaces' trigger with the last bridge. The legacy data stays as it is; the states are not
-- touched. Returns how many bridges were dropped (0: the table had none).
create or replace function lifecycle.legacy_bridge_drop(source regclass)
returns int
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  dropped int;
begin
  delete from lifecycle.legacy_bridges b where b.source = source;
  get diagnostics dropped = row_count;
  -- Its triggers and their WHEN function go (the function too when the table is gone).
  perform lifecycle.legacy_bridge_watch(source);
  if not exists (select from lifecycle.legacy_bridges) then
    drop trigger if exists namespaces_5_legacy_bridge on lifecycle.namespaces;
  end if;
  return dropped;
end
$$;

comment on function lifecycle.legacy_bridge_drop(regclass) is
  'End the bridges of a legacy table (its trigger, and the namespaces'' with the last bridge); returns how many.';
