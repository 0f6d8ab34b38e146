-- Writes a client makes directly in an organization (a membership, a webhook, a namespace's name)
-- hold the organization's lock row shared, as every change below it does (step 1 of the global
-- lock order, namespace_lock_path, which also refuses them with NS011 while the organization moves
-- to another cluster): the move's start, which takes that lock row exclusively, waits for those
-- already made and exports them; those made after it are refused. The column naming the row's
-- namespace is namespace_id (id for lifecycle.namespaces); a row moved from one namespace to
-- another (a webhook's UPDATE) holds both organizations. A namespace that does not exist holds
-- nothing: the row's own checks refuse it (NS004).
create or replace function lifecycle.organization_moving_guard()
returns trigger
language plpgsql
-- Definer: the lock rows and the marks are read and locked by this schema alone.
security definer
set search_path to ''
as $$
declare
  root bigint;
  other bigint;
begin
  if tg_table_name = 'namespaces' then
    -- (Read generically: the function's other tables have no column id to speak of.)
    select n.traversal_ids[1] into root from lifecycle.namespaces n where n.id = (pg_catalog.to_jsonb(new) ->> 'id')::bigint;
  elsif tg_op = 'DELETE' then
    select n.traversal_ids[1] into root from lifecycle.namespaces n where n.id = old.namespace_id;
  else
    select n.traversal_ids[1] into root from lifecycle.namespaces n where n.id = new.namespace_id;
    if tg_op = 'UPDATE' and new.namespace_id is distinct from old.namespace_id then
      select n.traversal_ids[1] into other from lifecycle.namespaces n where n.id = old.namespace_id;
    end if;
  end if;
  -- namespace_lock_path's step 1 and its check, inlined: this runs for every membership written.
  -- Two organizations (a webhook moved between them) in id order.
  if other is not null and other <> root then
    perform 1 from lifecycle.namespace_details d where d.namespace_id = least(root, other) for key share;
    root := greatest(root, other);
  end if;
  perform 1 from lifecycle.namespace_details d where d.namespace_id = root for key share;
  if exists (select from lifecycle.organization_moves m
              where m.organization_id in (root, other) and m.direction = 'out' and m.finished_at is null) then
    perform lifecycle.organization_moving_check(array[root, other]);
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

-- namespaces_2_moving fires before an update of name, the one column of a namespace the application
-- writes itself; the other writes of namespaces are the operations', which check the move.
create or replace trigger namespace_members_moving
  before insert or update or delete on lifecycle.namespace_members
  for each row execute function lifecycle.organization_moving_guard();
create or replace trigger webhooks_moving
  before insert or update or delete on lifecycle.webhooks
  for each row execute function lifecycle.organization_moving_guard();
create or replace trigger namespaces_2_moving
  before update of name on lifecycle.namespaces
  for each row execute function lifecycle.organization_moving_guard();
