-- The one gate (docs/design.md §3): every INSERT and every UPDATE of state on lifecycle.namespaces, from
-- the API or raw SQL, passes here. It takes the path locks (global lock order, namespace_lock_path)
-- and raises what transition_refusal returns: the matrix, authorization and guards. A same-state
-- UPDATE passes untouched (no history).
--
-- A change it lets through it also records, before the row is written, in the same statement:
-- exactly one history row, its fact, and the state metadata kept current (last_updated_at,
-- last_changed_by_user_id, previous_state, preserved_state, plus the keys the call passed but
-- reason and preserved_state). No BEFORE trigger that sorts after this one fires on a change of
-- state (namespaces_2_visibility fires on visibility and parent_id, and a change of state and
-- parent together is refused below), so the row written is the row recorded; an error later in
-- the statement undoes the record with the row. (Not in an AFTER trigger: that would be a second
-- trigger call, its queued event, and the context read and the states' names looked up again, on
-- every change.) An INSERT's details row is written after the row (namespaces_state_record),
-- which it references.
-- The fact is a state change's audit event, named by lifecycle.state_transitions.audit_action
-- (archived, restored, deletion_started, …), with the history row's id, event, actor, source and
-- metadata, the namespace's path of ids and its full path. The import and the legacy backfill
-- write their history rows set-based and emit one fact per batch.
-- Leaving transfer_in_progress by any way closes the transfer's accepted request (failed, with
-- last_error), unless the move itself closed it first: no request stays accepted for a namespace
-- no longer in transfer (lifecycle.check_invariants, accepted_request_without_transfer).
-- preserved_state is the permanent state (lifecycle.states.permanent) the namespace had before
-- its current run of temporary states: set when it leaves a permanent state for a temporary one,
-- kept while it moves between temporary ones (deletion_scheduled ⇄ deletion_in_progress), dropped
-- when it lands in a permanent state again.
--
-- The actor and the operation come from the context namespace_change_state sets, read only for an
-- UPDATE of state (which no client role may make: every one comes through namespace_change_state,
-- which writes that context first, or is a raw UPDATE by the schema's owner, judged as the system,
-- which only superusers and lifecycle_worker members may act as). An INSERT, which a client makes
-- itself, reads no setting: creation needs no actor (docs/reliability.md).
--
-- Every expression a PL/pgSQL function evaluates is prepared again in each transaction, and a
-- change is one: what is read once is kept in a variable, and what one statement can use is
-- written inside it rather than assigned first.
create or replace function lifecycle.namespaces_state_gate()
returns trigger
language plpgsql
-- Definer: path locks, guard reads and the record need privileges the application role does not have.
security definer
set search_path to ''
-- Seq scans off: the cached generic plan of the full path's lookup stays the index plan however
-- small the table was when it was made (see namespace_lock_path); JIT off, as a query that can
-- only scan then looks expensive enough to be compiled, which costs milliseconds.
set enable_seqscan to off
set jit to off
as $$
declare
  refusal record;
  -- What the rules say of the two states (names, flags), from their digest.
  rule lifecycle.transition_rule;
  change jsonb;
  actor bigint;
  happened timestamptz;
  locked text;
  recorded bigint;
begin
  -- A same-state UPDATE passes untouched, and so do the rows of a backfill of legacy states,
  -- which it writes set-based with lifecycle.importing set and checks itself (see the trigger's
  -- definition). The setting is asked here, not in the trigger's WHEN clause: PostgreSQL reads a
  -- WHEN clause back from its text and prepares it in every statement that fires the trigger,
  -- which cost more than this expression, and every change of state fires it. (The INSERT's
  -- trigger keeps its WHEN clause: the import's rows must not call it at all.)
  if tg_op = 'UPDATE' and (new.state = old.state or pg_catalog.current_setting('lifecycle.importing', true) = 'on') then
    return new;
  end if;

  -- Guards read other rows. Under REPEATABLE READ those reads come from a snapshot taken before the
  -- locks below were granted, so two concurrent changes could each miss the other. READ COMMITTED
  -- re-reads after the locks; SERIALIZABLE detects the conflict.
  if pg_catalog.current_setting('transaction_isolation') = 'repeatable read' then
    raise exception using errcode = 'NS010',
      message = 'namespace state changes need READ COMMITTED or SERIALIZABLE isolation',
      detail = pg_catalog.format('namespace_id=%s transaction_isolation=repeatable read', new.id),
      hint = 'Run the change in a READ COMMITTED (the default) or SERIALIZABLE transaction.';
  end if;

  if tg_op = 'INSERT' then
    -- (An INSERT's path was locked by the traversal_ids trigger.) An expression, not a query:
    -- transition_refusal answers one row (all nulls when allowed).
    refusal := lifecycle.transition_refusal(new.id, new.traversal_ids, null, new.state, null, null);
    if refusal.code is not null then
      raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail,
        hint = refusal.hint;
    end if;
    return new;
  end if;

  if new.parent_id is distinct from old.parent_id then
    raise exception using errcode = 'NS010', message = 'change state and parent in separate statements',
      detail = pg_catalog.format('namespace_id=%s', new.id),
      hint = 'Moves go through a transfer; state changes through lifecycle.namespace_transition.';
  end if;
  -- The change's context (namespace_change_state's lifecycle.change), read once.
  change := nullif(pg_catalog.current_setting('lifecycle.change', true), '')::jsonb;
  -- The digest of the rule tables (transition_rules_write): an inlined lookup in constants.
  rule := lifecycle.transition_rule(old.state, new.state);

  -- Steps 1 and 2 of the lock order: the ancestors' keys shared, root first, so none changes
  -- state or moves before this commits, then this namespace's own key exclusively, so every
  -- change below it has committed and none starts before this commits. A raw UPDATE takes them
  -- here (after its row: see namespace_lock_path). The API took them already, around the row
  -- (namespace_lock), and says so for this row and this UPDATE only (path_locked in
  -- lifecycle.change, set and cleared around it by namespace_change_state): the row has been
  -- locked since, so its path is the one locked, and locking it again would only repeat the work.
  -- Trusting a setting is safe here: only the table's owner and superusers may UPDATE state
  -- directly, and they could as well disable this trigger.
  -- (Assignments, not PERFORM, which would run a whole query to call each.)
  if (change ->> 'path_locked') is distinct from new.id::text then
    locked := lifecycle.namespace_lock_path(old.traversal_ids[1:pg_catalog.cardinality(old.traversal_ids) - 1])::text
           || lifecycle.namespace_lock_path(array[new.id], true)::text;
  end if;
  -- Leaving a pending deletion takes the path again: hold its name (step 3 of the lock order)
  -- while transition_refusal checks that no live sibling took it meanwhile.
  if rule.from_pending and not rule.to_pending then
    locked := lifecycle.namespace_lock_sibling_path(new.parent_id, new.path)::text;
  end if;

  actor := (change ->> 'actor')::bigint;
  -- With the ancestors' paths, for the fact's full path below (read with the ancestor guard's rows).
  refusal := lifecycle.transition_refusal(new.id, new.traversal_ids, old.state, new.state, actor,
                                          nullif(change ->> 'operation', ''), true);
  if refusal.code is not null then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail,
      hint = refusal.hint;
  end if;

  -- When the change happened: now, or the legacy time a bridged change carries
  -- (namespace_change_state's changed_at).
  happened := coalesce((change ->> 'changed_at')::timestamptz, pg_catalog.now());
  new.updated_at := happened;
  -- Counted here, apart from the history rows, so lifecycle.check_invariants can tell a state
  -- change that lost its history row.
  new.state_changes := old.state_changes + 1;
  -- Who scheduled the deletion and when: set when it is scheduled from a permanent state, kept
  -- while the deletion runs or is requeued, cleared when the namespace is restored.
  if rule.to_permanent then
    new.deletion_scheduled_at := null;
    new.deletion_scheduled_by := null;
  elsif lifecycle.state_deletion_adjourned(new.state) and lifecycle.state_permanent(old.state) then
    new.deletion_scheduled_at := happened;
    new.deletion_scheduled_by := actor;
  end if;

  -- The record, in one statement: the details row (its row lock taken by the UPDATE, step 4 of
  -- the lock order, so the row is validated once), the history row, and the history row's fact
  -- (the outbox row fact_emit writes for the other facts), with the fact's action
  -- (lifecycle.state_transitions.audit_action, from the rule's digest) and the namespace's full path (the ancestors' paths
  -- transition_refusal read with the guard's rows, and this row's path as it is written). The history row and the fact follow the details row (from d), so nothing is
  -- written twice when it is missing (below). History rows of source import have no fact each
  -- (the import emits one per batch), whoever writes them. The call's metadata keys are merged,
  -- but for two: reason explains this one change and stays in its history row; preserved_state is
  -- the gate's alone (a caller must not redirect a later restore); the keys set here override
  -- whatever the call passed.
  -- progress belongs to the state it was recorded in: a new state starts without it, unless the
  -- call reports one (a finished move's). Back in a permanent state, the temporary run is over,
  -- and with it preserved_state and the attempts; leaving a permanent state for a temporary one
  -- records it as preserved_state; between temporary states it is kept. The keys built here are
  -- trusted by namespace_details_validate for this UPDATE only (lifecycle.details_record).
  locked := pg_catalog.set_config('lifecycle.details_record', new.id::text, true);
  loop
    with c as (
      select coalesce(change -> 'metadata', '{}') as metadata, nullif(change ->> 'event', '') as event,
             coalesce(nullif(change ->> 'source', ''), 'sql') as source
    ), d as (
      update lifecycle.namespace_details d
         set state_metadata =
               ((((d.state_metadata - 'progress') || (c.metadata - array['reason', 'preserved_state'])
                  || pg_catalog.jsonb_build_object('last_updated_at', happened, 'last_changed_by_user_id', actor,
                                                   'previous_state', rule.from_name))
                 - case when rule.to_permanent then array['preserved_state', 'attempt_count'] else '{}'::text[] end)
                || case when not rule.to_permanent and lifecycle.state_permanent(old.state)
                        then pg_catalog.jsonb_build_object('preserved_state', rule.from_name)
                        else '{}'::jsonb end)
        from c
       where d.namespace_id = new.id
      returning d.namespace_id
    ), h as (
      insert into lifecycle.namespace_state_updates (namespace_id, from_state, to_state, event, actor_id, source, metadata, created_at)
      select new.id, old.state, new.state, c.event, actor, c.source, c.metadata, happened
        from d, c
      returning id
    ), f as (
      insert into lifecycle.facts (action, namespace_id, traversal_ids, full_path, actor_id, details)
      select rule.audit_action,
             new.id, new.traversal_ids,
             coalesce(refusal.ancestor_path || '/', '') || new.path,
             actor,
             pg_catalog.jsonb_build_object('from_state', rule.from_name, 'to_state', rule.to_name, 'event', c.event,
                                           'source', c.source, 'metadata', c.metadata, 'state_update_id', h.id)
        from h, c
       where c.source <> 'import'
    )
    select d.namespace_id into recorded from d;
    exit when recorded is not null;
    -- No details row (removed by hand): started afresh, empty, then written as above.
    insert into lifecycle.namespace_details (namespace_id, state_metadata) values (new.id, '{}');
  end loop;
  locked := pg_catalog.set_config('lifecycle.details_record', '', true);

  if rule.from_operation = 'transfer' then
    -- The request row was locked first by namespace_lock (step 0 of the lock order) on the API's
    -- path; a raw UPDATE takes it here.
    update lifecycle.transfer_requests t
       set status = 'failed', completed_at = pg_catalog.now(),
           last_error = pg_catalog.format('the transfer ended without its move: the namespace went to %s (%s)', rule.to_name,
                                          coalesce('event ' || nullif(change ->> 'event', ''), 'a direct change'))
     where t.namespace_id = new.id and t.status = 'accepted';
  end if;
  return new;
end
$$;

-- A plain INSERT fires the _insert trigger; the import's rows, written with lifecycle.importing
-- set, do not: the import checks them set-based (namespace_import_batch). (A client that sets it
-- is refused: settings_confirmed.) Updates fire the other one.
-- A backfill of legacy states (legacy_bridge_backfill) writes them set-based with
-- lifecycle.importing set, as the import does; every other change of state goes through
-- namespace_change_state, which clears that setting first, and a raw UPDATE of state is the
-- schema owner's alone.
create or replace trigger namespaces_2_state_gate
  before update of state on lifecycle.namespaces
  for each row
  execute function lifecycle.namespaces_state_gate();

create or replace trigger namespaces_2_state_gate_insert
  before insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_state_gate();
