-- Organizations moving between clusters (docs/scaling.md, Cells). organization_move_out_start marks
-- one moving out, and every write to it is then refused (NS011: namespace_lock_path for every
-- change, organization_moving_guard for a client's direct writes); the row stays when the move
-- ends, as the record of where it went (and, on the target, where it came from).
create table lifecycle.organization_moves (
  organization_id bigint not null,
  path text not null,
  -- out: moving out of this cluster (finished_at null: every write refused, NS011), or moved out;
  -- in: moved in from peer.
  direction text not null,
  peer text not null,
  started_at timestamp with time zone not null,
  finished_at timestamp with time zone,
  -- The session moving it out, by pid and role (what pg_stat_activity shows every role, as for
  -- lifecycle.sweep_claims): organization_move_claim.
  mover_pid integer,
  mover_role oid,
  -- Rows moved or removed, by kind; while moving out, the record of an earlier move in (previous).
  summary jsonb default '{}'::jsonb not null,
  constraint organization_moves_pkey primary key (organization_id),
  constraint organization_moves_direction_check check ((direction = any (array['out'::text, 'in'::text])))
);

comment on table lifecycle.organization_moves is
  'Organizations moving out of this cluster (writes refused with NS011), moved out (where to) and moved in (where from): organization_move_out_start, _finish, _cancel and organization_move_in write it.';
