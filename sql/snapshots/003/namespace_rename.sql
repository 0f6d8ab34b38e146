-- FROZEN: the version migration 003 installs (and 006's down restores). Never edit; change the
-- live file under sql/functions in a new migration instead.
-- Change a namespace's path (docs/design.md §5). Who: an actor with the 'rename' level of
-- lifecycle.operation_policies (owner by default). What changes: the path; a redirect row keeps
-- the old full path resolving (descendants' old paths too, by prefix). Refused: NS004 missing,
-- NS005 not allowed, NS001/NS002 read-only (own or ancestor's state), NS008 past the rate limit
-- (lifecycle.settings: rename_limit per rename_window, counted under the row lock so two renames at
-- once cannot both pass), NS010 invalid path, NS006 a live sibling has it. A failed call changes
-- nothing. Audit fact: the redirect row (kind rename, old and new full path, actor).
create or replace function lifecycle.namespace_rename(id bigint, new_path text, actor_id bigint)
returns table (namespace_id bigint, old_full_path text, new_full_path text, changed boolean)
language plpgsql
-- Definer: path, redirects and locks are not writable by the application role.
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
  refusal record;
  cfg lifecycle.settings;
  recent int;
  old_path text;
  next_allowed timestamptz;
begin
  if id is null then
    raise exception using errcode = 'NS010', message = 'id is required', hint = 'Pass the id of the namespace to rename.';
  end if;
  ns := lifecycle.namespace_lock(id);
  if new_path is not distinct from ns.path then
    return query select ns.id, lifecycle.namespace_full_path(ns.id), lifecycle.namespace_full_path(ns.id), false;
    return;
  end if;

  select * into refusal
    from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor_id,
           (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'rename'),
           'rename this namespace');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  select * into refusal from lifecycle.read_only_refusal(ns.id, 'rename');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;

  select * into cfg from lifecycle.settings;
  select count(*), min(r.created_at) + cfg.rename_window into recent, next_allowed
    from lifecycle.namespace_redirects r
   where r.namespace_id = ns.id and r.kind = 'rename' and r.created_at > pg_catalog.now() - cfg.rename_window;
  if recent >= cfg.rename_limit then
    raise exception using errcode = 'NS008',
      message = pg_catalog.format('namespace renamed %s times in the last %s, the limit', recent, cfg.rename_window),
      detail = pg_catalog.format('namespace_id=%s renames=%s rename_limit=%s rename_window=%s', ns.id, recent,
                                 cfg.rename_limit, cfg.rename_window),
      hint = pg_catalog.format('Try again after %s.', next_allowed);
  end if;

  old_path := lifecycle.namespace_full_path(ns.id);
  -- The paths trigger validates the new path (NS010) and that no live sibling has it (NS006).
  update lifecycle.namespaces n set path = new_path, updated_at = pg_catalog.now() where n.id = ns.id;
  insert into lifecycle.namespace_redirects (old_full_path, namespace_id, kind, actor_id, new_full_path)
  values (old_path, ns.id, 'rename', actor_id, lifecycle.namespace_full_path(ns.id));

  return query select ns.id, old_path, lifecycle.namespace_full_path(ns.id), true;
end
$$;

comment on function lifecycle.namespace_rename(bigint, text, bigint) is
  'Change a namespace''s path, keeping a redirect. Errors: NS001 NS002 NS004 NS005 NS006 NS008 NS010.';
