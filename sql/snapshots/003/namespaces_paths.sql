-- Path rules on every write path (create, rename, move): a valid slug that is not reserved
-- (path_refusal, NS010), and unique among live siblings (NS006).
--
-- A rename or a move (UPDATE) checks under the sibling-path lock (step 3 of the global lock
-- order), so two of them cannot both take a path: the second waits and gets NS006. An INSERT checks
-- without it: a bulk INSERT of 100k rows would hold 100k advisory locks until commit, more than the
-- lock table holds. Two concurrent INSERTs of one path are then stopped by the unique index
-- namespaces_live_path_key (SQLSTATE 23505, which the Go client maps to NS006 name_taken).
create or replace function lifecycle.namespaces_paths()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  refusal text;
  holder bigint;
begin
  if tg_op = 'UPDATE' and new.path = old.path and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  refusal := lifecycle.path_refusal(new.path, new.parent_id);
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'invalid path', detail = refusal,
      hint = 'Use lowercase letters, digits, and _ - . inside; avoid the names in lifecycle.reserved_paths.';
  end if;
  -- A namespace pending deletion does not hold its path (lifecycle.states.pending_deletion).
  if exists (select from lifecycle.states s where s.code = new.state and s.pending_deletion) then
    return new;
  end if;
  if tg_op = 'UPDATE' then
    perform lifecycle.namespace_lock_sibling_path(new.parent_id, new.path);
  end if;
  select n.id into holder
    from lifecycle.namespaces n
   where coalesce(n.parent_id, 0) = coalesce(new.parent_id, 0) and n.path = new.path
     and n.state <> 2 and n.state <> 4 and n.id <> new.id;
  if found then
    raise exception using errcode = 'NS006',
      message = pg_catalog.format('path %s is taken', coalesce(lifecycle.namespace_full_path(new.parent_id) || '/', '') || new.path),
      detail = pg_catalog.format('parent_id=%s path=%s taken_by_namespace_id=%s', new.parent_id, new.path, holder),
      hint = 'Choose another path.';
  end if;
  return new;
end
$$;

create or replace trigger namespaces_2_paths
  before insert or update of path, parent_id on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_paths();
