-- A namespace changes parent only while it is transfer_in_progress (a transfer's move,
-- namespace_transfer_execute), on every write path: the transfer's rules (request, accept, target
-- checks, guards) cannot be skipped with a raw UPDATE of parent_id.
create or replace function lifecycle.namespaces_moves()
returns trigger
language plpgsql
set search_path to ''
as $$
begin
  if new.parent_id is distinct from old.parent_id and old.state <> lifecycle.state_code('transfer_in_progress') then
    raise exception using errcode = 'NS001',
      message = pg_catalog.format('a namespace moves only while transfer_in_progress, not %s', lifecycle.state_name(old.state)),
      detail = pg_catalog.format('namespace_id=%s state=%s', old.id, lifecycle.state_name(old.state)),
      hint = 'Request a transfer (lifecycle.namespace_transfer_request).';
  end if;
  return new;
end
$$;

create or replace trigger namespaces_2_moves
  before update of parent_id on lifecycle.namespaces
  for each row execute function lifecycle.namespaces_moves();
