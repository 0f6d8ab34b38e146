-- After the gate let a change through: exactly one history row per state change, and the state
-- metadata kept current (last_updated_at, last_changed_by_user_id, previous_state, preserved_state,
-- plus the keys the call passed but reason and preserved_state), in the same transaction. On INSERT: the namespace's details row.
--
-- preserved_state is the permanent state (lifecycle.states.permanent) the namespace had before
-- its current run of temporary states: set when it leaves a permanent state for a temporary one,
-- kept while it moves between temporary ones (deletion_scheduled ⇄ deletion_in_progress), dropped
-- when it lands in a permanent state again.
create or replace function lifecycle.namespaces_state_record()
returns trigger
language plpgsql
-- Definer: history and metadata are not writable by the application role.
security definer
set search_path to ''
as $$
declare
  actor bigint := nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint;
  call_metadata jsonb := coalesce(nullif(pg_catalog.current_setting('lifecycle.metadata', true), '')::jsonb, '{}');
  -- The call's keys are merged, but for two: reason explains this one change and stays in its
  -- history row; preserved_state is the gate's alone (a caller must not redirect a later restore).
  -- The keys set here override whatever the call passed.
  call_keys jsonb := call_metadata - array['reason', 'preserved_state'];
begin
  if tg_op = 'INSERT' then
    insert into lifecycle.namespace_details (namespace_id, state_metadata)
    values (new.id, pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(),
                                                  'last_changed_by_user_id', actor));
    return null;
  end if;

  if new.state = old.state then
    return null;
  end if;

  -- One statement reads the two states (lifecycle.states) and reads and writes the details row,
  -- its row lock taken by the UPDATE (step 4 of the lock order), so the row is validated once.
  -- progress belongs to the state it was recorded in: a new state starts without it, unless the
  -- call reports one (a finished move's). Back in a permanent state, the temporary run is over,
  -- and with it preserved_state and the attempts; leaving a permanent state for a temporary one
  -- records it as preserved_state; between temporary states it is kept.
  loop
    update lifecycle.namespace_details d
       set state_metadata =
             ((((d.state_metadata - 'progress') || call_keys
                || pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(), 'last_changed_by_user_id', actor,
                                                 'previous_state', f.name))
               - case when t.permanent then array['preserved_state', 'attempt_count'] else '{}'::text[] end)
              || case when f.permanent and not t.permanent then pg_catalog.jsonb_build_object('preserved_state', f.name)
                      else '{}'::jsonb end)
      from lifecycle.states f, lifecycle.states t
     where d.namespace_id = new.id and f.code = old.state and t.code = new.state;
    exit when found;
    -- No details row (removed by hand): started afresh, empty, then written as above.
    insert into lifecycle.namespace_details (namespace_id, state_metadata) values (new.id, '{}');
  end loop;

  insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata)
  values (new.id, old.state, new.state,
          nullif(pg_catalog.current_setting('lifecycle.event', true), ''),
          actor,
          coalesce(nullif(pg_catalog.current_setting('lifecycle.source', true), ''), 'sql'),
          call_metadata);
  return null;
end
$$;

create or replace trigger namespaces_3_state_record
  after insert or update of state on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_state_record();
