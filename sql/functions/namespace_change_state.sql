-- The core of namespace_transition and namespace_event: validates the arguments, takes the locks
-- in the global order (namespace_lock_path), resolves an event's target, and changes the state with
-- an UPDATE, so the state gate decides (matrix, authorization, guards) and the state record writes
-- history and metadata exactly as for any other write path. A same-state request is a no-op.
--
-- Not granted to anyone: the API functions call it as their owner. Its parameters carry other names
-- than the API's because PL/pgSQL cannot have an argument and a result column of the same name.
-- operation names the operation whose own code path makes this change (lifecycle.states.operation:
-- 'transfer' from namespace_transfer_execute); the gate lets that operation's code leave the state
-- the operation owns whoever calls it (transition_refusal). The public API passes none, and the
-- setting is always written from this argument, so a client cannot claim an operation by setting it.
-- changed_at is when the change happened, when not now: a legacy change the bridge carries over
-- (legacy_bridge_source), whose history row and deletion date keep the legacy time. source is what
-- the history row and the fact name as the change's way in: 'api', or 'bridge' for a legacy write
-- the bridge carries over (legacy_bridge_apply), which is judged like an API call all the same.
-- Likewise always written, and lifecycle.importing always cleared: no client setting reaches the gate.
create or replace function lifecycle.namespace_change_state(
  id bigint,
  target_state_name text,
  event_name text,
  actor bigint,
  call_metadata jsonb,
  operation text default null,
  changed_at timestamptz default null,
  source text default 'api'
)
-- One row, not a set: the API functions return it with RETURN NEXT, an expression, where a call
-- of a set-returning function would be a statement of its own (an executor start and a
-- tuplestore) in every transition.
returns lifecycle.state_change
language plpgsql
set search_path to ''
-- Plans are made once per session (PL/pgSQL) and kept: left to choose, the plan cache judged the
-- generic plan of the answer's statement dearer than one for the actual values and planned it
-- afresh on every call, which cost more than running it.
set plan_cache_mode to force_generic_plan
as $$
#variable_conflict use_variable
declare
  current_state smallint;
  target smallint;
  ev lifecycle.event_rule;
  key_state smallint;
  refusal text;
  setting text;
  answer lifecycle.state_change;
begin
  if id is null then
    raise exception using errcode = 'NS010', message = 'namespace_id is required',
      hint = 'Pass the id of the namespace to change.';
  end if;
  if event_name is null and target_state_name is null then
    raise exception using errcode = 'NS010', message = 'to_state is required',
      hint = 'Pass a state name from lifecycle.states (or "active").';
  end if;
  if event_name is null then
    target := lifecycle.state_code(target_state_name);
    if target is null then
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('unknown state %L', target_state_name),
        detail = pg_catalog.format('to_state=%s', target_state_name),
        hint = (select 'Known states: active, ' || pg_catalog.string_agg(s.name, ', ' order by s.code) || '.'
                  from lifecycle.states s);
    end if;
  else
    -- The event's target and sources as constants: the digest of lifecycle.events and
    -- event_sources (transition_rules_write), an expression that reads no table.
    ev := lifecycle.event_rule(event_name);
    if ev.target_state is null then
      raise exception using errcode = 'NS010',
        message = pg_catalog.format('unknown event %L', event_name),
        detail = pg_catalog.format('event=%s', event_name),
        hint = (select 'Known events: ' || pg_catalog.string_agg(e.name, ', ' order by e.name) || '.'
                  from lifecycle.events e);
    end if;
  end if;
  call_metadata := coalesce(call_metadata, '{}');
  -- Most calls pass no metadata: the empty object conforms, so the schema walk is skipped.
  if call_metadata <> '{}' then
    refusal := lifecycle.state_metadata_refusal(call_metadata);
  end if;
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid metadata', detail = refusal,
      hint = 'Allowed keys and types: lifecycle.json_schemas, name state_metadata.';
  end if;

  -- Locks, in the global order: the path root first, then the row (namespace_lock; NS004).
  current_state := (lifecycle.namespace_lock(namespace_change_state.id)).state;

  if event_name is not null then
    if not coalesce(current_state = any (ev.from_states), false) then
      raise exception using errcode = 'NS001',
        message = pg_catalog.format('event %s does not apply to a namespace in state %s', event_name,
                                    lifecycle.state_name(current_state)),
        detail = pg_catalog.format('namespace_id=%s event=%s state=%s', namespace_change_state.id, event_name,
                                   lifecycle.state_name(current_state)),
        hint = (select pg_catalog.format('%s applies to namespaces in state: %s.', event_name,
                                         pg_catalog.string_agg(lifecycle.state_name(s.from_state), ', ' order by s.from_state))
                  from lifecycle.event_sources s where s.event = event_name);
    end if;
    target := ev.target_state;
    if ev.target_key is not null then
      -- "Back to where it was", when the metadata remembers a state the matrix allows from here.
      select t.to_state into key_state
        from lifecycle.namespace_details d
        join lifecycle.state_transitions t
          on t.from_state = current_state and t.to_state = lifecycle.state_code(d.state_metadata ->> ev.target_key)
       where d.namespace_id = namespace_change_state.id;
      target := coalesce(key_state, target);
    end if;
  end if;

  if target <> current_state then
    -- The context the gate and the record read (transaction-local; reset right after, so a later
    -- raw UPDATE in the same transaction is not attributed to this call): the change's context as
    -- one JSON object (lifecycle.change: actor, event, metadata, source, operation, changed_at,
    -- path_locked), one setting written and read where seven were (each write and each read of a
    -- setting looks the name up among all of them). lifecycle.actor_id, which the rename, the
    -- visibility change and the move write for their own triggers, is not read on a change of
    -- state and not written here. path_locked tells the
    -- gate that this row's ancestors are already locked (above), by this call, for this UPDATE.
    -- (Expressions, not PERFORM: an expression without a table is evaluated directly, a PERFORM
    -- runs a whole query.)
    setting := pg_catalog.set_config('lifecycle.change',
                 pg_catalog.jsonb_build_object('actor', actor, 'event', event_name, 'metadata', call_metadata,
                                               'source', coalesce(source, 'api'), 'operation', operation,
                                               'changed_at', changed_at,
                                               'path_locked', namespace_change_state.id::text)::text, true)
            || pg_catalog.set_config('lifecycle.importing', '', true);
    update lifecycle.namespaces n set state = target where n.id = namespace_change_state.id;
    setting := pg_catalog.set_config('lifecycle.change', '', true);
  end if;

  -- The state names from the digest of lifecycle.states (constants in the plan, see
  -- states_digest_write). A state of its own is the effective state (the nearest namespace on the
  -- path that has one is this one), answered without a statement; else the effective state comes
  -- from the inlined namespace_effective_state, which reads the path.
  if lifecycle.state_sets_effective(target) then
    return (namespace_change_state.id, (lifecycle.state_names())[current_state], (lifecycle.state_names())[target],
            (lifecycle.state_names())[target], target <> current_state)::lifecycle.state_change;
  end if;
  select namespace_change_state.id, (lifecycle.state_names())[current_state], (lifecycle.state_names())[target],
         e.effective_state, target <> current_state
    into answer
    from lifecycle.namespace_effective_state(namespace_change_state.id) e;
  return answer;
end
$$;
