-- Set a namespace's visibility (private, internal, public; lifecycle.visibility_levels). Idempotent
-- on the same value. Who: the 'change_visibility' level of lifecycle.operation_policies. Refused:
-- NS010 unknown level, NS005, NS001/NS002 read-only, and (from the visibility trigger, on every
-- write path) NS002 more visible than the parent, NS003 less visible than a descendant (the hint
-- names it). Audit fact: the namespace row's visibility change.
create or replace function lifecycle.namespace_set_visibility(id bigint, new_visibility text, actor_id bigint)
returns table (namespace_id bigint, visibility text, changed boolean)
language plpgsql
security definer
set search_path to ''
set lock_timeout to '5s'
as $$
#variable_conflict use_variable
declare
  ns lifecycle.namespaces;
begin
  if id is null then
    raise exception using errcode = 'NS010', message = 'id is required', hint = 'Pass the id of the namespace.';
  end if;
  if not exists (select from lifecycle.visibility_levels v where v.name = new_visibility) then
    raise exception using errcode = 'NS010', message = pg_catalog.format('unknown visibility %L', new_visibility),
      hint = (select 'Known levels: ' || pg_catalog.string_agg(v.name, ', ' order by v.rank) || '.' from lifecycle.visibility_levels v);
  end if;
  ns := lifecycle.namespace_lock(id);
  if ns.visibility = new_visibility then
    return query select ns.id, ns.visibility, false;
    return;
  end if;
  perform lifecycle.operation_check(ns, actor_id, 'change_visibility', 'change the visibility of', true);
  -- The fact trigger reads who acted from the context (reset right after).
  -- The context of its triggers, all of it written (visibility_lowering is a move's, never this
  -- call's: a client's value must not let a decrease skip its descendants).
  perform pg_catalog.set_config('lifecycle.actor_id', coalesce(actor_id::text, ''), true),
          pg_catalog.set_config('lifecycle.visibility_lowering', '', true);
  update lifecycle.namespaces n set visibility = new_visibility, updated_at = pg_catalog.now()
   where n.id = ns.id;
  perform pg_catalog.set_config('lifecycle.actor_id', '', true);
  return query select ns.id, new_visibility, true;
end
$$;

comment on function lifecycle.namespace_set_visibility(bigint, text, bigint) is
  'Set visibility (idempotent). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';
