-- Bring a namespace's state in line with what its legacy data now says of one bridged state
-- (docs/design.md §10), through the same gate as every change: any bridge of that state speaking
-- for the namespace says "in it", or none does. Moving in goes to the state (with the legacy
-- actor and time); moving out takes the state's way back (unarchive, restore, deletion_failed,
-- unmaintain). A namespace the lifecycle does not know is left alone. The change is made as the
-- legacy bridge's operation: the application's old code decided it, so the actor is attribution
-- only (transition_refusal); the matrix, the guards, the grace period and the path rules judge
-- it, and a refusal raises, refusing the legacy statement.
create function lifecycle.legacy_bridge_apply(bridged smallint, ns_id bigint, at timestamptz, actor bigint)
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
  select coalesce(bool_or(lifecycle.legacy_bridge_holds(b, ns.id, ns.type)), false) into legacy
    from lifecycle.legacy_bridges b
   where b.state = bridged;
  if legacy = lifecycle.legacy_bridge_says(bridged, ns.state, preserved) then
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
