-- Bring a namespace's state in line with what its legacy data now says of one bridged state
-- (docs/design.md §10), through the same gate as every change: any bridge of that state speaking
-- for the namespace says "in it", or all that speak say not. When none speaks for it (a flag or
-- column bridge whose row is gone: the legacy row deleted, as a legacy hard delete does), the
-- state stays. Moving in goes to the state (with the legacy actor and time); moving out takes the
-- state's way back (unarchive, restore, deletion_failed, unmaintain). Archived beside a deletion,
-- a move or maintenance is what the legacy data says of a namespace in that state that will
-- return to archived (legacy_bridge_says): the archived flag turned on or off then changes the
-- state a restore returns to, not the state. A namespace the lifecycle does not know is left
-- alone. The change is made as the legacy bridge's operation: the application's old code decided
-- it, so the actor is attribution only (transition_refusal); the matrix, the guards, the grace
-- period and the path rules judge it, and a refusal raises, refusing the legacy statement.
create or replace function lifecycle.legacy_bridge_apply(bridged smallint, ns_id bigint, at timestamptz, actor bigint)
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  ns lifecycle.namespaces;
  preserved text;
  legacy boolean;
begin
  select * into ns from lifecycle.namespaces n where n.id = ns_id;
  if not found then
    return;
  end if;
  select d.state_metadata ->> 'preserved_state' into preserved from lifecycle.namespace_details d where d.namespace_id = ns_id;
  select bool_or(lifecycle.legacy_bridge_holds(b, ns.id, ns.type)) into legacy
    from lifecycle.legacy_bridges b
   where b.state = bridged;
  if legacy is null or legacy = lifecycle.legacy_bridge_says(bridged, ns.state, preserved) then
    return;
  end if;
  if bridged = 1 and ns.state in (2, 4, 5, 6) then
    -- Step 2 then 4 of the global lock order (namespace_lock_path): the row, then its details.
    ns := lifecycle.namespace_lock(ns_id);
    -- (lifecycle.details_record is the state record's: a client's value must not spare this write
    -- its check, namespace_details_validate.)
    perform pg_catalog.set_config('lifecycle.details_record', '', true);
    update lifecycle.namespace_details d
       set state_metadata = d.state_metadata
             || pg_catalog.jsonb_build_object('preserved_state', case when legacy then 'archived' else 'ancestor_inherited' end)
     where d.namespace_id = ns_id;
    return;
  end if;
  if legacy then
    perform lifecycle.namespace_change_state(ns.id, lifecycle.state_name(bridged), null, actor,
      '{"reason": "legacy data"}', 'legacy_bridge', at);
  else
    perform lifecycle.namespace_change_state(ns.id, null,
      case bridged when 1 then 'unarchive' when 2 then 'restore' when 4 then 'deletion_failed' else 'unmaintain' end,
      actor, '{"reason": "legacy data"}', 'legacy_bridge', at);
  end if;
end
$$;
