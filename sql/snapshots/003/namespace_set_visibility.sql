-- FROZEN: the version migration 003 installs (and 006's down restores). Never edit; change the
-- live file under sql/functions in a new migration instead.
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
  refusal record;
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
  select * into refusal
    from lifecycle.actor_refusal(ns.id, ns.traversal_ids, actor_id,
           (select p.min_access_level from lifecycle.operation_policies p where p.operation = 'change_visibility'),
           'change the visibility of this namespace');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  select * into refusal from lifecycle.read_only_refusal(ns.id, 'change the visibility of');
  if found then
    raise exception using errcode = refusal.code, message = refusal.message, detail = refusal.detail, hint = refusal.hint;
  end if;
  update lifecycle.namespaces n set visibility = new_visibility, updated_at = pg_catalog.now()
   where n.id = ns.id;
  return query select ns.id, new_visibility, true;
end
$$;

comment on function lifecycle.namespace_set_visibility(bigint, text, bigint) is
  'Set visibility (idempotent). Errors: NS001 NS002 NS003 NS004 NS005 NS010.';
