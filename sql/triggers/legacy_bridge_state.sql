-- State → legacy (docs/design.md §10): after any change of state of a namespace, whatever its
-- write path (the API, a raw UPDATE, the sweeper, a transfer, a change the bridge itself carried
-- over), every bridge's legacy data is written to say what the new state says
-- (legacy_bridge_write), in the same transaction. Writes that change nothing touch no row, so a
-- change that came from the legacy data does not come back to it. Created on lifecycle.namespaces
-- by lifecycle.legacy_bridge_add (dropped with the last bridge); not for a backfill, which writes
-- no legacy data.
create function lifecycle.legacy_bridge_state()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_bridges;
  preserved text;
  at timestamptz := coalesce(nullif(pg_catalog.current_setting('lifecycle.changed_at', true), '')::timestamptz, pg_catalog.now());
  actor bigint := nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint;
begin
  if new.state = old.state then
    return null;
  end if;
  select d.state_metadata ->> 'preserved_state' into preserved from lifecycle.namespace_details d where d.namespace_id = new.id;
  for b in select * from lifecycle.legacy_bridges x order by x.id loop
    continue when b.namespace_types is not null and not new.type = any (b.namespace_types);
    perform lifecycle.legacy_bridge_write(b, new.id, lifecycle.legacy_bridge_says(b.state, new.state, preserved), at, actor);
  end loop;
  return null;
end
$$;
