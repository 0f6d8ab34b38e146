-- A state stays while something names its code: a namespace in it (lifecycle.namespaces.state) or
-- a history row from or to it (lifecycle.namespace_state_updates). Deleting it, changing its code
-- or truncating lifecycle.states is refused then, with 23503 (foreign_key_violation, what a
-- foreign key to lifecycle.states(code) would answer) naming the first such row. The rule
-- "a namespace's and a history row's states are known" is the writers' (the gate, through the
-- matrix; the import, the backfill and the organization moves, from lifecycle.states); this is
-- its other half, which they cannot see.
-- Rare statements of the schema's owner, never on a change's path (which is why this is a trigger
-- here and not a foreign key there: a key checked per change, a FOR KEY SHARE lock on a few shared
-- rows): a namespace in a state of its own is found through namespaces_own_state_idx; one in a
-- state that is not its own (the path's, a few: every namespace without a state), and the history,
-- which has no index on its states, by a sequential scan, which stops at the first row found.
-- Before it reads, it takes SHARE on lifecycle.namespaces until the statement's transaction ends:
-- it waits for the changes in flight and holds off new ones, so none that the rules before this
-- statement let through commits a namespace in the state (or a history row naming it) unseen
-- here, as foreign keys' row locks would (every history row is written with a namespace's row).
-- A migration that changes the states takes its locks on lifecycle.namespaces first anyway
-- (sql/README.md, Migrations without stalls).
create or replace function lifecycle.states_in_use_guard()
returns trigger
language plpgsql
-- Definer: it reads every namespace and the history, whoever changes the states (a foreign key is
-- checked as the referencing table's owner too).
security definer
set search_path to ''
as $$
declare
  code smallint;
  namespace_id bigint;
  history_id bigint;
  doing text;
begin
  if tg_op = 'UPDATE' and new.code = old.code then
    return new;
  end if;
  doing := case tg_op when 'DELETE' then 'delete' when 'UPDATE' then 'change the code of' else 'truncate' end;
  lock table lifecycle.namespaces in share mode;
  if tg_op = 'TRUNCATE' then
    select n.id into namespace_id from lifecycle.namespaces n limit 1;
    if namespace_id is null then
      select u.id into history_id from lifecycle.namespace_state_updates u limit 1;
    end if;
  else
    code := old.code;
    if lifecycle.state_is_own(code) then
      -- The predicate of namespaces_own_state_idx, so the plan may use it.
      select n.id into namespace_id from lifecycle.namespaces n
       where n.state = code and lifecycle.state_is_own(n.state) limit 1;
    else
      select n.id into namespace_id from lifecycle.namespaces n where n.state = code limit 1;
    end if;
    if namespace_id is null then
      select u.id into history_id from lifecycle.namespace_state_updates u
       where u.from_state = code or u.to_state = code limit 1;
    end if;
  end if;
  if namespace_id is not null then
    raise exception using
      errcode = '23503',
      message = case when tg_op = 'TRUNCATE' then 'cannot truncate lifecycle.states: namespaces are in its states'
                     else pg_catalog.format('cannot %s state %s: a namespace is in it', doing, old.name) end,
      detail = pg_catalog.format('%snamespace_id=%s (lifecycle.namespaces.state)', 'code=' || code || ' ', namespace_id),
      hint = 'A state stays while a namespace is in it: move those namespaces to another state first.';
  end if;
  if history_id is not null then
    raise exception using
      errcode = '23503',
      message = case when tg_op = 'TRUNCATE' then 'cannot truncate lifecycle.states: the history names its states'
                     else pg_catalog.format('cannot %s state %s: the history names it', doing, old.name) end,
      detail = pg_catalog.format('%sstate_update_id=%s (lifecycle.namespace_state_updates.from_state, to_state)',
                                 'code=' || code || ' ', history_id),
      hint = 'A state stays while a history row names it: the history is kept, so add a state rather than change or remove one in use.';
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end
$$;

create or replace trigger states_in_use_guard
  before delete or update of code on lifecycle.states
  for each row execute function lifecycle.states_in_use_guard();

create or replace trigger states_in_use_guard_truncate
  before truncate on lifecycle.states
  for each statement execute function lifecycle.states_in_use_guard();
