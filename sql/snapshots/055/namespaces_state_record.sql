-- After the gate let a change through: exactly one history row per state change, its fact, and
-- the state metadata kept current (last_updated_at, last_changed_by_user_id, previous_state,
-- preserved_state, plus the keys the call passed but reason and preserved_state), in the same
-- transaction. On INSERT: the namespace's details row.
-- The fact is a state change's audit event, named by lifecycle.state_transitions.audit_action
-- (archived, restored, deletion_started, …), with the history row's id, event, actor, source and
-- metadata, the namespace's path of ids and its full path. It is emitted here, not by a trigger on
-- the history table: this function writes every history row of a change (the import and the
-- legacy backfill write theirs set-based and emit one fact per batch), and it already holds what
-- the fact needs (the state names, the path of ids), which the trigger read again.
-- Leaving transfer_in_progress by any way closes the transfer's accepted request (failed, with
-- last_error), unless the move itself closed it first: no request stays accepted for a namespace
-- no longer in transfer (lifecycle.check_invariants, accepted_request_without_transfer).
--
-- preserved_state is the permanent state (lifecycle.states.permanent) the namespace had before
-- its current run of temporary states: set when it leaves a permanent state for a temporary one,
-- kept while it moves between temporary ones (deletion_scheduled ⇄ deletion_in_progress), dropped
-- when it lands in a permanent state again.
-- The call's context (actor, metadata, event, source, time) is read for an UPDATE of state only,
-- which namespace_change_state makes after writing it (no client role may UPDATE state); an
-- INSERT, which a client makes itself, reads no setting.
create or replace function lifecycle.namespaces_state_record()
returns trigger
language plpgsql
-- Definer: history, metadata and facts are not writable by the application role.
security definer
set search_path to ''
-- Seq scans off: the cached generic plan of the full path's lookup stays the index plan however
-- small the table was when it was made (see namespace_lock_path); JIT off, as a query that can
-- only scan then looks expensive enough to be compiled, which costs milliseconds.
set enable_seqscan to off
set jit to off
as $$
declare
  actor bigint;
  call_metadata jsonb;
  call_keys jsonb;
  from_operation text;
  from_name text;
  to_name text;
  from_permanent boolean;
  to_permanent boolean;
  recorded bigint;
  change jsonb;
  call_event text;
  call_source text;
  happened timestamptz;
  noted text;
begin
  if tg_op = 'INSERT' then
    insert into lifecycle.namespace_details (namespace_id, state_metadata)
    values (new.id, pg_catalog.jsonb_build_object('last_updated_at', pg_catalog.now(),
                                                  'last_changed_by_user_id', null));
    return null;
  end if;

  if new.state = old.state then
    return null;
  end if;
  -- The change's context (namespace_change_state's lifecycle.change), read once.
  change := nullif(pg_catalog.current_setting('lifecycle.change', true), '')::jsonb;
  actor := (change ->> 'actor')::bigint;
  call_metadata := coalesce(change -> 'metadata', '{}');
  -- The call's keys are merged, but for two: reason explains this one change and stays in its
  -- history row; preserved_state is the gate's alone (a caller must not redirect a later restore).
  -- The keys set here override whatever the call passed.
  call_keys := call_metadata - array['reason', 'preserved_state'];
  call_event := nullif(change ->> 'event', '');
  call_source := coalesce(nullif(change ->> 'source', ''), 'sql');
  -- When the change happened: now, or the legacy time a bridged change carries.
  happened := coalesce((change ->> 'changed_at')::timestamptz, pg_catalog.now());

  -- What lifecycle.states says of the two states, from its digest (states_digest_write): constants
  -- in the plans, no table read.
  from_name := (lifecycle.state_names())[old.state];
  to_name := (lifecycle.state_names())[new.state];
  from_permanent := lifecycle.state_permanent(old.state);
  to_permanent := lifecycle.state_permanent(new.state);
  from_operation := lifecycle.state_operation(old.state);

  -- One statement writes the whole record: the details row (its row lock taken by the UPDATE,
  -- step 4 of the lock order, so the row is validated once), the history row, and the history
  -- row's fact (the outbox row fact_emit writes for the other facts), with the fact's action
  -- (lifecycle.state_transitions.audit_action) and the namespace's full path. Each statement a
  -- change runs costs its executor's start and its tables' setup; the history row and the fact
  -- follow the details row (from d), so nothing is written twice when it is missing (below).
  -- History rows of source import have no fact each (the import emits one per batch), whoever
  -- writes them.
  -- progress belongs to the state it was recorded in: a new state starts without it, unless the
  -- call reports one (a finished move's). Back in a permanent state, the temporary run is over,
  -- and with it preserved_state and the attempts; leaving a permanent state for a temporary one
  -- records it as preserved_state; between temporary states it is kept. The keys built here are
  -- trusted by namespace_details_validate for this UPDATE only (lifecycle.details_record).
  noted := pg_catalog.set_config('lifecycle.details_record', new.id::text, true);
  loop
    with d as (
      update lifecycle.namespace_details d
         set state_metadata =
               ((((d.state_metadata - 'progress') || call_keys
                  || pg_catalog.jsonb_build_object('last_updated_at', happened, 'last_changed_by_user_id', actor,
                                                   'previous_state', from_name))
                 - case when to_permanent then array['preserved_state', 'attempt_count'] else '{}'::text[] end)
                || case when from_permanent and not to_permanent then pg_catalog.jsonb_build_object('preserved_state', from_name)
                        else '{}'::jsonb end)
       where d.namespace_id = new.id
      returning d.namespace_id
    ), h as (
      insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
      select new.id, old.state, new.state, call_event, actor, call_source, call_metadata, happened
        from d
      returning id
    ), f as (
      insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details)
      select (select tr.audit_action from lifecycle.state_transitions tr
               where tr.from_state = old.state and tr.to_state = new.state),
             new.id, new.traversal_ids,
             (select pg_catalog.string_agg(a.path, '/' order by p.depth)
                from pg_catalog.unnest(new.traversal_ids) with ordinality as p(id, depth)
                join lifecycle.namespaces a on a.id = p.id),
             actor,
             pg_catalog.jsonb_build_object('from_state', from_name, 'to_state', to_name, 'event', call_event,
                                           'source', call_source, 'metadata', call_metadata, 'state_update_id', h.id)
        from h
       where call_source <> 'import'
    )
    select d.namespace_id into recorded from d;
    exit when recorded is not null;
    -- No details row (removed by hand): started afresh, empty, then written as above.
    insert into lifecycle.namespace_details (namespace_id, state_metadata) values (new.id, '{}');
  end loop;
  noted := pg_catalog.set_config('lifecycle.details_record', '', true);

  if from_operation = 'transfer' then
    -- The request row was locked first by namespace_lock (step 0 of the lock order) on the API's
    -- path; a raw UPDATE takes it here.
    update lifecycle.transfer_requests t
       set status = 'failed', completed_at = pg_catalog.now(),
           last_error = pg_catalog.format('the transfer ended without its move: the namespace went to %s (%s)', to_name,
                                          coalesce('event ' || call_event, 'a direct change'))
     where t.namespace_id = new.id and t.status = 'accepted';
  end if;
  return null;
end
$$;

-- The _insert trigger does not fire for the import's rows (lifecycle.importing set; a client that
-- sets it is refused: settings_confirmed): the import writes them set-based.
-- Not for a backfill of legacy states (lifecycle.importing set; see namespaces_state_gate).
create or replace trigger namespaces_3_state_record
  after update of state on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_state_record();

create or replace trigger namespaces_3_state_record_insert
  after insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_state_record();
