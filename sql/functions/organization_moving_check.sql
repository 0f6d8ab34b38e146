-- Refuse a write to an organization that is moving to another cluster (NS011): a row of
-- lifecycle.organization_moves with direction out, not finished, for one of the given namespaces
-- (the callers pass paths, so the organization is among them when anything in it is written).
-- Once the move has finished, nothing of the organization is left here to write; the move's own
-- statements never come here (organization_move_in replaces the row before it writes, and the
-- rows organization_move_out_finish deletes take no path locks). Called by namespace_lock_path
-- after its locks, only when such a row exists.
create or replace function lifecycle.organization_moving_check(ids bigint[])
returns void
language plpgsql
set search_path to ''
as $$
declare
  m lifecycle.organization_moves;
begin
  select * into m from lifecycle.organization_moves o
   where o.organization_id = any (organization_moving_check.ids) and o.direction = 'out' and o.finished_at is null
   limit 1;
  if not found then
    return;
  end if;
  raise exception using errcode = 'NS011', message = 'organization is moving to another cluster',
    detail = pg_catalog.format('organization_id=%s path=%s to=%s since=%s', m.organization_id, m.path, m.peer, m.started_at),
    hint = 'Reads go on; writes resume on the cluster that serves the organization once the move (cmd/orgmove) ends.';
end
$$;
