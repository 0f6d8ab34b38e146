-- member_added, member_changed (access level), member_removed. Memberships removed with a hard
-- delete go with their namespace's hard_deleted fact instead.
create function lifecycle.namespace_members_facts()
returns trigger
language plpgsql
-- Definer: facts are emitted by this schema alone (lifecycle.fact_emit is granted to no one).
security definer
set search_path to ''
as $$
declare
  ns lifecycle.namespaces;
  m lifecycle.namespace_members := case when tg_op = 'DELETE' then old else new end;
begin
  if tg_op = 'UPDATE' and new.access_level = old.access_level then
    return null;
  end if;
  select * into ns from lifecycle.namespaces n where n.id = m.namespace_id;
  if not found then
    return null;
  end if;
  perform lifecycle.fact_emit(
    case tg_op when 'INSERT' then 'member_added' when 'UPDATE' then 'member_changed' else 'member_removed' end,
    m.namespace_id, ns.traversal_ids, lifecycle.namespace_full_path(m.namespace_id),
    nullif(pg_catalog.current_setting('lifecycle.actor_id', true), '')::bigint,
    pg_catalog.jsonb_build_object('user_id', m.user_id, 'access_level', m.access_level,
      'previous_access_level', case when tg_op = 'UPDATE' then old.access_level end));
  return null;
end
$$;

create trigger namespace_members_facts
  after insert or update or delete on lifecycle.namespace_members
  for each row execute function lifecycle.namespace_members_facts();
