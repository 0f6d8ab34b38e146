-- End the members bridge of a table (docs/adoption.md, Memberships): its triggers go (members',
-- and namespace_members' write-back with the last bridge); GitLab's
-- rows and the lifecycle's memberships stay as they are. Returns how many bridges were dropped (0
-- or 1).
create or replace function lifecycle.legacy_members_bridge_drop(members regclass)
returns int
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  dropped int;
begin
  delete from lifecycle.legacy_members_bridges b where b.source = members;
  get diagnostics dropped = row_count;
  if exists (select from pg_catalog.pg_trigger t where t.tgrelid = members and t.tgname = 'lifecycle_legacy_members') then
    execute pg_catalog.format('drop trigger lifecycle_legacy_members on %s', members);
  end if;
  if not exists (select from lifecycle.legacy_members_bridges) then
    drop trigger if exists namespace_members_legacy on lifecycle.namespace_members;
  end if;
  return dropped;
end
$$;

comment on function lifecycle.legacy_members_bridge_drop(regclass) is
  'End the members bridge of a table (its trigger); returns how many.';
