-- Path and name rules on every write path (create, rename, move, a raw UPDATE of name): a name
-- within its limits (name_refusal, NS010); a valid slug that is not reserved (path_refusal, NS010);
-- and a path unique among live siblings (NS006).
--
-- Every write that makes a path live below a parent (this trigger for create, rename and move;
-- the gate for a restore) takes the name "path below parent" first (namespace_lock_sibling_path,
-- step 3 of the global lock order) and checks under it, so of two writers racing for one path the
-- second waits, then sees the first's committed row and is refused with NS006: no client ever
-- meets the unique index namespaces_live_path_key (23505), which stays as the last line.
create or replace function lifecycle.namespaces_paths()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
declare
  refusal text;
  holder bigint;
  locked text;
begin
  if tg_op = 'INSERT' or new.path is distinct from old.path or new.parent_id is distinct from old.parent_id then
    refusal := lifecycle.path_refusal(new.path, new.parent_id);
    if refusal is not null then
      raise exception using errcode = 'NS010', message = 'invalid path', detail = refusal,
        hint = 'Use lowercase letters, digits, and _ - . inside; avoid the names in lifecycle.reserved_paths.';
    end if;
  end if;
  if tg_op = 'INSERT' or new.name is distinct from old.name then
    refusal := lifecycle.name_refusal(new.name);
    if refusal is not null then
      raise exception using errcode = 'NS010', message = 'invalid name', detail = refusal,
        hint = 'Use 1 to 255 characters without control characters.';
    end if;
  end if;
  if tg_op = 'UPDATE' and new.path = old.path and new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  -- A namespace pending deletion does not hold its path (lifecycle.states.pending_deletion).
  if exists (select from lifecycle.states s where s.code = new.state and s.pending_deletion) then
    return new;
  end if;
  -- (An assignment, not PERFORM, which would run a whole query to call it.)
  locked := lifecycle.namespace_lock_sibling_path(new.parent_id, new.path)::text;
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

-- A plain INSERT fires the _insert trigger; the import's rows, written with lifecycle.importing
-- set, do not: the import checks them set-based (namespace_import_batch). (A client that sets it
-- is refused: settings_confirmed.) Updates fire the other one.
create or replace trigger namespaces_2_paths
  before update of path, parent_id, name on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_paths();

create or replace trigger namespaces_2_paths_insert
  before insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_paths();
