-- Rows are removed only below a deletion in progress (the namespace or an ancestor is
-- deletion_in_progress), on every write path: nothing is deleted without having been scheduled and
-- started through the gate.
create or replace function lifecycle.namespaces_deletion_guard()
returns trigger
language plpgsql
set search_path to ''
as $$
begin
  if not exists (select from lifecycle.namespaces a
                  where a.id = any (old.traversal_ids) and a.state = lifecycle.state_code('deletion_in_progress')) then
    raise exception using errcode = 'NS001',
      message = 'only a namespace being deleted (deletion_in_progress, or below one) can be removed',
      detail = pg_catalog.format('namespace_id=%s state=%s', old.id, lifecycle.state_name(old.state)),
      hint = 'Schedule the deletion and start it; lifecycle.namespace_hard_delete removes the rows.';
  end if;
  return old;
end
$$;

create or replace trigger namespaces_deletion_guard
  before delete on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_deletion_guard();
