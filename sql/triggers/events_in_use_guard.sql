-- An event stays while a history row names it (lifecycle.namespace_state_updates.event):
-- deleting it, renaming it or truncating lifecycle.events is refused then, with 23503
-- (foreign_key_violation, what a foreign key to lifecycle.events(name) would answer) naming the
-- first such row. The rule "a history row's event is known" is the writers'
-- (namespace_change_state resolves it with event_rule, organization_move_in refuses an unknown
-- one, a raw UPDATE, the import and the backfill name none); this is its other half, which they
-- cannot see.
-- Rare statements of the schema's owner, never on a change's path (which is why this is a trigger
-- here and not a foreign key there: a key checked per change): the history has no index on its
-- events, so it is read by a sequential scan, which stops at the first row found.
-- Before it reads, it takes SHARE on lifecycle.namespaces until the statement's transaction ends:
-- every history row naming an event is written with a change of a namespace's row, so it waits
-- for the changes in flight and holds off new ones, and none commits a history row naming the
-- event unseen here, as a foreign key's row lock would.
create or replace function lifecycle.events_in_use_guard()
returns trigger
language plpgsql
-- Definer: it reads the history, whoever changes the events (a foreign key is checked as the
-- history's owner too).
security definer
set search_path to ''
as $$
declare
  history_id bigint;
begin
  if tg_op = 'UPDATE' and new.name = old.name then
    return new;
  end if;
  lock table lifecycle.namespaces in share mode;
  if tg_op = 'TRUNCATE' then
    select u.id into history_id from lifecycle.namespace_state_updates u where u.event is not null limit 1;
  else
    select u.id into history_id from lifecycle.namespace_state_updates u where u.event = old.name limit 1;
  end if;
  if history_id is not null then
    raise exception using
      errcode = '23503',
      message = case tg_op when 'TRUNCATE' then 'cannot truncate lifecycle.events: the history names its events'
                           when 'DELETE' then pg_catalog.format('cannot delete event %s: the history names it', old.name)
                           else pg_catalog.format('cannot rename event %s: the history names it', old.name) end,
      detail = pg_catalog.format('%sstate_update_id=%s (lifecycle.namespace_state_updates.event)',
                                 case when tg_op <> 'TRUNCATE' then 'event=' || old.name || ' ' end, history_id),
      hint = 'An event stays while a history row names it: the history is kept, so add an event rather than change or remove one in use.';
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end
$$;

create or replace trigger events_in_use_guard
  before delete or update of name on lifecycle.events
  for each row execute function lifecycle.events_in_use_guard();

create or replace trigger events_in_use_guard_truncate
  before truncate on lifecycle.events
  for each statement execute function lifecycle.events_in_use_guard();
