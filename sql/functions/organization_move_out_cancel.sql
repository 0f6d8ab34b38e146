-- Give up moving an organization out of this cluster (cmd/orgmove after a refusal or failure on
-- the target, or -cancel): the mark goes (an organization moved in earlier gets back its record
-- of where it came from), and writes to it are served here again. Only the session holding the
-- move, or any session once that one is gone (organization_move_claim). It cannot know whether
-- the target has committed the organization meanwhile: cmd/orgmove asks the target first, and so
-- must anyone who calls this by hand, or two clusters serve it. True when a move was canceled,
-- false when the organization was not moving out.
create or replace function lifecycle.organization_move_out_cancel(path text)
returns boolean
language plpgsql
-- Definer: only the schema's owner writes lifecycle.organization_moves.
security definer
set search_path to ''
as $$
declare
  m lifecycle.organization_moves;
begin
  select * into m from lifecycle.organization_moves o
   where o.path = organization_move_out_cancel.path and o.direction = 'out' and o.finished_at is null;
  if not found then
    return false;
  end if;
  m := lifecycle.organization_move_claim(m.organization_id);
  delete from lifecycle.organization_moves o where o.organization_id = m.organization_id;
  if m.summary ? 'previous' then
    insert into lifecycle.organization_moves
    select (pg_catalog.jsonb_populate_record(null::lifecycle.organization_moves, m.summary -> 'previous')).*;
  end if;
  return true;
end
$$;
