-- Why actor_id may not do `action` on the namespace whose path is traversal_ids, or no row: the
-- system (actor null) is only for superusers and lifecycle_worker members; a user needs an effective
-- access level (inherited down the tree) of at least required_level. The one place authorization
-- is decided: transition_refusal asks it with lifecycle.transition_policies' level, the
-- operations with lifecycle.operation_policies'.
create or replace function lifecycle.actor_refusal(
  namespace_id bigint,
  traversal_ids bigint[],
  actor_id bigint,
  required_level smallint,
  action text
)
returns table (code text, message text, detail text, hint text)
language plpgsql
stable
set search_path to ''
as $$
#variable_conflict use_variable
declare
  level smallint;
begin
  if actor_id is null then
    if not lifecycle.caller_may_act_as_system() then
      code := 'NS005';
      message := pg_catalog.format('only the system may %s without an actor', action);
      detail := pg_catalog.format('namespace_id=%s actor_id=null role=%s', namespace_id,
                  coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user));
      hint := 'Pass the acting user''s id as actor_id; actor_id null is reserved for members of lifecycle_worker.';
      return next;
    end if;
    return;
  end if;
  level := lifecycle.namespace_access_level(traversal_ids, actor_id);
  if level < coalesce(required_level, 50) then
    code := 'NS005';
    message := pg_catalog.format('user %s may not %s', actor_id, action);
    detail := pg_catalog.format('namespace_id=%s actor_id=%s access_level=%s required_access_level=%s',
                                namespace_id, actor_id, level, coalesce(required_level, 50));
    hint := 'Ask an owner of the namespace or of one of its ancestors to do it, or to grant the required access level.';
    return next;
  end if;
end
$$;
