-- Bring a namespace's state in line with what its legacy data now says of one bridged state
-- (docs/design.md §10), through the same gate as every change: any bridge of that state speaking
-- for the namespace says "in it", or all that speak say not. When none speaks for it (a flag or
-- column bridge whose row is gone: the legacy row deleted, as a legacy hard delete does), the
-- state stays. Moving in goes to the state (with the legacy actor and time); moving out takes the
-- state's way back (lifecycle.legacy_bridge_states.way_back: unarchive, restore, deletion_failed,
-- unmaintain). A permanent state (archived) beside a temporary one other than a creation (a
-- deletion, a move, maintenance) is what the legacy data says of a namespace in that state that
-- will return to it (legacy_bridge_says): its flag turned on or off then changes the state a
-- restore returns to (to it, or to where its way back leads), not the state, judged as the change
-- into it or back by the same actor. A namespace the lifecycle does not know is left alone.
--
-- A legacy write has the writer's authority, no more (docs/design.md §10.2): the change is judged
-- exactly like the calling role's API call on behalf of actor (the legacy row's, or the bridge's
-- configured one; null is the system, which only lifecycle_worker members and superusers may act
-- as), so the grace period, delete now and the states operations own hold for the application's
-- old code as for its new. Authority is the calling role (caller_may_act_as_system reads the
-- role, not this definer's owner); the actor is attribution and, for a user, the access level
-- asked. Recorded with source bridge. A refusal raises, refusing the legacy statement.
--
-- A state the matrix does not lead to from the current one is reached by way of the one state it
-- passes (the backfill's way, legacy_bridge_backfill): GitLab's "delete immediately" sets
-- pending_delete on a project not marked for deletion, and the project is scheduled, then its
-- deletion started, two changes judged each (the write-back then marks it, as GitLab's data of a
-- deletion running says).
create or replace function lifecycle.legacy_bridge_apply(bridged smallint, ns_id bigint, at timestamptz, actor bigint)
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  ns lifecycle.namespaces;
  via smallint;
  preserved text;
  legacy boolean;
  refusal record;
  caller name;
  way_back text;
  back smallint;
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
  -- A role that may not call the state API (a login the application's legacy table is open to,
  -- no more) changes no state through it either.
  caller := coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user);
  if not pg_catalog.has_function_privilege(caller, 'lifecycle.namespace_event(bigint, text, bigint, jsonb)', 'EXECUTE') then
    raise exception using errcode = 'NS005',
      message = pg_catalog.format('role %s may not change namespace states, through a legacy bridge neither', caller),
      detail = pg_catalog.format('namespace_id=%s role=%s bridged_state=%s', ns_id, caller, lifecycle.state_name(bridged)),
      hint = 'Write legacy data that a bridge carries over as a member of lifecycle_app (or lifecycle_worker).';
  end if;
  select r.way_back, e.target_state into way_back, back
    from lifecycle.legacy_bridge_states r join lifecycle.events e on e.name = r.way_back
   where r.state = bridged;
  if lifecycle.state_permanent(bridged) and not lifecycle.state_permanent(ns.state)
     and not lifecycle.state_being_created(ns.state) then
    -- Step 2 then 4 of the global lock order (namespace_lock_path): the row, then its details.
    ns := lifecycle.namespace_lock(ns_id);
    -- Who may archive or unarchive it may say where its restore returns.
    select * into refusal
      from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor,
             (lifecycle.transition_rule(case when legacy then back else bridged end,
                                        case when legacy then bridged else back end)).min_access_level,
             pg_catalog.format('%s this namespace',
               case when legacy then (select e.name from lifecycle.events e where e.target_state = bridged order by e.name limit 1)
                    else way_back end));
    if found then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
    end if;
    -- (lifecycle.details_record is the state record's: a client's value must not spare this write
    -- its check, namespace_details_validate.)
    perform pg_catalog.set_config('lifecycle.details_record', '', true);
    update lifecycle.namespace_details d
       set state_metadata = d.state_metadata
             || pg_catalog.jsonb_build_object('preserved_state', lifecycle.state_name(case when legacy then bridged else back end))
     where d.namespace_id = ns_id;
    return;
  end if;
  if legacy then
    if not exists (select from lifecycle.state_transitions t where t.from_state = ns.state and t.to_state = bridged) then
      select t.from_state into via
        from lifecycle.state_transitions t
        join lifecycle.state_transitions u on u.from_state = ns.state and u.to_state = t.from_state
       where t.to_state = bridged
       order by t.from_state
       limit 1;
      if via is not null then
        perform lifecycle.namespace_change_state(ns.id, lifecycle.state_name(via), null, actor,
          '{"reason": "legacy data"}', null, at, 'bridge');
      end if;
    end if;
    perform lifecycle.namespace_change_state(ns.id, lifecycle.state_name(bridged), null, actor,
      '{"reason": "legacy data"}', null, at, 'bridge');
  else
    perform lifecycle.namespace_change_state(ns.id, null, way_back, actor, '{"reason": "legacy data"}', null, at, 'bridge');
  end if;
end
$$;
