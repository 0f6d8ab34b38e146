-- Facts of lifecycle.namespaces on every write path: namespace_created, renamed (path change; the
-- old full path is derived from the parent's), visibility_changed. State changes are the history
-- rows' facts; moves are their transfer request's. The actor of a rename or a visibility change
-- comes from the API's context (namespace_rename, namespace_set_visibility write it before their
-- UPDATE, which no client role may make); a creation, a client's own INSERT, has none: no setting
-- a client can make is read for it. The descendants a move lowers in visibility emit none: the moved namespace's fact
-- tells of them all (namespaces_visibility).
create or replace function lifecycle.namespaces_facts()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
as $$
declare
  actor bigint;
  parent_path text;
begin
  if tg_op = 'INSERT' then
    perform lifecycle.fact_emit('namespace_created', new.id, new.traversal_ids, lifecycle.namespace_full_path(new.id), null,
      pg_catalog.jsonb_build_object('type', new.type, 'path', new.path, 'name', new.name, 'parent_id', new.parent_id,
                                    'visibility', new.visibility, 'state', lifecycle.state_name(new.state)));
    return null;
  end if;
  actor := nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint;
  if new.path is distinct from old.path then
    parent_path := lifecycle.namespace_full_path(new.parent_id);
    perform lifecycle.fact_emit('renamed', new.id, new.traversal_ids, lifecycle.namespace_full_path(new.id), actor,
      pg_catalog.jsonb_build_object('old_path', old.path, 'new_path', new.path,
                                    'old_full_path', coalesce(parent_path || '/', '') || old.path,
                                    'new_full_path', coalesce(parent_path || '/', '') || new.path));
  end if;
  if new.visibility is distinct from old.visibility
     and not (pg_catalog.pg_trigger_depth() > 1
              and coalesce(pg_catalog.current_setting('lifecycle.visibility_lowering', true), '') = any (old.traversal_ids::text[])) then
    perform lifecycle.fact_emit('visibility_changed', new.id, new.traversal_ids, lifecycle.namespace_full_path(new.id), actor,
      pg_catalog.jsonb_build_object('from', old.visibility, 'to', new.visibility));
  end if;
  return null;
end
$$;

-- The _insert trigger does not fire for the import's rows (lifecycle.importing set; a client that
-- sets it is refused: settings_confirmed): the import writes them set-based.
create or replace trigger namespaces_4_facts
  after update of path, visibility on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_facts();

create or replace trigger namespaces_4_facts_insert
  after insert on lifecycle.namespaces
  for each row when (pg_catalog.current_setting('lifecycle.importing', true) is distinct from 'on')
  execute function lifecycle.namespaces_facts();
