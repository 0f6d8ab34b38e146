-- Take an organization's move out of this cluster for this session (lifecycle.organization_moves,
-- direction out, not finished) and return its row, locked: the session that started the move
-- holds it while it exports, and only it may finish or cancel it, so two runs of cmd/orgmove never
-- move one organization at once. A move whose session is gone (a run killed midway) is taken over:
-- running the command again resumes it. The session is named by pid and role, which
-- pg_stat_activity shows every role (as in sweep_claim: a backend_start is shown only to
-- the session's role and pg_read_all_stats, and this reads it as the schema's owner, which on a
-- managed service is no superuser); a pid reused by a session of the same role keeps the move
-- held until that session ends. NS011 when another live session holds it; NS010 when the
-- organization is not moving out of this cluster.
create or replace function lifecycle.organization_move_claim(organization_id bigint)
returns lifecycle.organization_moves
language plpgsql
-- Definer: only the schema's owner writes lifecycle.organization_moves.
security definer
set search_path to ''
as $$
declare
  me oid := (select a.usesysid from pg_catalog.pg_stat_activity a where a.pid = pg_catalog.pg_backend_pid());
  m lifecycle.organization_moves;
begin
  select * into m from lifecycle.organization_moves o
   where o.organization_id = organization_move_claim.organization_id and o.direction = 'out' and o.finished_at is null
     for update;
  if not found then
    raise exception using errcode = 'NS010', message = 'organization is not moving out of this cluster',
      detail = pg_catalog.format('organization_id=%s', organization_move_claim.organization_id),
      hint = 'Start the move with lifecycle.organization_move_out_start (cmd/orgmove).';
  end if;
  if (m.mover_pid, m.mover_role) is distinct from (pg_catalog.pg_backend_pid(), me)
     and exists (select from pg_catalog.pg_stat_activity a where a.pid = m.mover_pid and a.usesysid = m.mover_role) then
    raise exception using errcode = 'NS011', message = 'organization is being moved by another session',
      detail = pg_catalog.format('organization_id=%s path=%s to=%s pid=%s since=%s', m.organization_id, m.path, m.peer,
                                 m.mover_pid, m.started_at),
      hint = 'Wait for that run of cmd/orgmove to end; running it again once it has resumes the move.';
  end if;
  update lifecycle.organization_moves o set mover_pid = pg_catalog.pg_backend_pid(), mover_role = me
   where o.organization_id = m.organization_id
  returning * into m;
  return m;
end
$$;
