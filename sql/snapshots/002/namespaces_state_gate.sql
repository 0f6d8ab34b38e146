-- FROZEN: the version migration 002 installs (and 003's down restores). Never edit; change the
-- live file under sql/functions or sql/triggers in a new migration instead.
-- The one gate (docs/design.md §3): every INSERT and every UPDATE of state on lifecycle.namespaces, from
-- the API or raw SQL, passes here. It takes the path locks (global lock order, namespace_lock_path)
-- and raises what transition_refusal returns: the matrix, authorization and guards. A same-state
-- UPDATE passes untouched (no history).
--
-- The actor comes from the context namespace_change_state sets; a raw UPDATE has none and is
-- judged as the system, which only superusers and lifecycle_worker members may act as.
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

  -- An INSERT's path was locked by the traversal_ids trigger; an UPDATE locks its ancestors here
  -- (the API locked them already, so this waits only for raw UPDATEs).
  if tg_op = 'UPDATE' then
    perform lifecycle.namespace_lock_path(old.traversal_ids[1:pg_catalog.cardinality(old.traversal_ids) - 1]);
  end if;

  select * into refusal
    from lifecycle.transition_refusal(new.id, new.traversal_ids, from_state, new.state,
                                      nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint);
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail,
      hint = refusal.hint;
  end if;

  if tg_op = 'UPDATE' then
    new.updated_at := pg_catalog.now();
  end if;
  return new;
end
$$;

create or replace trigger namespaces_2_state_gate
  before insert or update of state on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_state_gate();
