-- The one gate (docs/design.md §3): every INSERT and every UPDATE of state on lifecycle.namespaces, from
-- the API or raw SQL, passes here. It takes the path locks (global lock order, namespace_lock_path)
-- and raises what transition_refusal returns: the matrix, authorization and guards. A same-state
-- UPDATE passes untouched (no history).
--
-- The actor and the operation come from the context namespace_change_state sets, read only for an
-- UPDATE of state (which no client role may make: every one comes through namespace_change_state,
-- which writes that context first, or is a raw UPDATE by the schema's owner, judged as the system,
-- which only superusers and lifecycle_worker members may act as). An INSERT, which a client makes
-- itself, reads no setting: creation needs no actor (docs/reliability.md).
create or replace function lifecycle.namespaces_state_gate()
returns trigger
language plpgsql
-- Definer: path locks and guard reads need privileges the application role does not have.
security definer
set search_path to ''
as $$
declare
  from_state smallint;
  refusal record;
  actor bigint;
  -- What lifecycle.states says of the two states.
  from_pending boolean;
  to_pending boolean;
  from_permanent boolean;
  to_permanent boolean;
  locked text;
  happened timestamptz;
  operation text;
  change jsonb;
begin
  if tg_op = 'UPDATE' then
    if new.state = old.state then
      return new;
    end if;
    if new.parent_id is distinct from old.parent_id then
      raise exception using errcode = 'NS010', message = 'change state and parent in separate statements',
        detail = pg_catalog.format('namespace_id=%s', new.id),
        hint = 'Moves go through a transfer; state changes through lifecycle.namespace_transition.';
    end if;
    from_state := old.state;
    -- The change's context (namespace_change_state's lifecycle.change), read once.
    change := nullif(pg_catalog.current_setting('lifecycle.change', true), '')::jsonb;
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

  -- From the digest of lifecycle.states, a bit per code (states_digest_write): the plan of each
  -- expression holds the mask as a constant and reads no table (a query of lifecycle.states was a
  -- statement per change). from_state is null for an INSERT, and so are its flags.
  from_pending := (lifecycle.state_flag_mask('pending_deletion') >> from_state) & 1 = 1;
  from_permanent := lifecycle.state_permanent(from_state);
  to_pending := (lifecycle.state_flag_mask('pending_deletion') >> new.state) & 1 = 1;
  to_permanent := lifecycle.state_permanent(new.state);
  if tg_op = 'UPDATE' then
    -- Steps 1 and 2 of the lock order: the ancestors' keys shared, root first, so none changes
    -- state or moves before this commits, then this namespace's own key exclusively, so every
    -- change below it has committed and none starts before this commits. A raw UPDATE takes them
    -- here (after its row: see namespace_lock_path). The API took them already, around the row
    -- (namespace_lock), and says so for this row and this UPDATE only (path_locked in
    -- lifecycle.change, set and
    -- cleared around it by namespace_change_state): the row has been locked since, so its path is
    -- the one locked, and locking it again would only repeat the work. (An INSERT's path was
    -- locked by the traversal_ids trigger.) Trusting a setting is safe here: only the table's owner
    -- and superusers may UPDATE state directly, and they could as well disable this trigger.
    -- (Assignments, not PERFORM, which would run a whole query to call each.)
    if (change ->> 'path_locked') is distinct from new.id::text then
      locked := lifecycle.namespace_lock_path(old.traversal_ids[1:pg_catalog.cardinality(old.traversal_ids) - 1])::text
             || lifecycle.namespace_lock_path(array[new.id], true)::text;
    end if;
    -- Leaving a pending deletion takes the path again: hold its name (step 3 of the lock order)
    -- while transition_refusal checks that no live sibling took it meanwhile.
    if from_pending and not to_pending then
      locked := lifecycle.namespace_lock_sibling_path(new.parent_id, new.path)::text;
    end if;
  end if;

  if tg_op = 'UPDATE' then
    actor := (change ->> 'actor')::bigint;
    operation := nullif(change ->> 'operation', '');
  end if;
  -- An expression, not a query: transition_refusal answers one row (all nulls when allowed).
  refusal := lifecycle.transition_refusal(new.id, new.traversal_ids, from_state, new.state, actor, operation);
  if refusal.code is not null then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail,
      hint = refusal.hint;
  end if;

  if tg_op = 'UPDATE' then
    -- When the change happened: now, or the legacy time a bridged change carries
    -- (namespace_change_state's changed_at).
    happened := coalesce((change ->> 'changed_at')::timestamptz, pg_catalog.now());
    new.updated_at := happened;
    -- Counted here, apart from the history rows, so lifecycle.check_invariants can tell a state
    -- change that lost its history row.
    new.state_changes := old.state_changes + 1;
    -- Who scheduled the deletion and when: set when it is scheduled from a permanent state, kept
    -- while the deletion runs or is requeued, cleared when the namespace is restored.
    if to_permanent then
      new.deletion_scheduled_at := null;
      new.deletion_scheduled_by := null;
    elsif lifecycle.state_deletion_adjourned(new.state) and from_permanent then
      new.deletion_scheduled_at := happened;
      new.deletion_scheduled_by := actor;
    end if;
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
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_state_gate();

create or replace trigger namespaces_2_state_gate_insert
  before insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_state_gate();
