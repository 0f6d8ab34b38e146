-- 039: organizations move between clusters (issue 25, point 4; docs/scaling.md, Cells): several
-- independent clusters each run the product for their own organizations, and an organization
-- moves from one to another by the product's own export and import (cmd/orgmove), ids kept:
--   * lifecycle.id_range and id_range_set: each cluster hands out the ids of every identity of the
--     schema from a range of its own, so that ids brought by an organization are nobody else's;
--   * lifecycle.organization_moves: a mark, written by organization_move_out_start, that refuses
--     every write to an organization moving out (NS011: namespace_lock_path, after its locks, for
--     every change; organization_moving_guard for the writes a client makes directly: memberships,
--     webhooks, names), kept when the move ends as the record of where it went (and, on the
--     target, where it came from);
--   * organization_export on the source, lifecycle.organization_imports and organization_move_in
--     on the target (one transaction, everything checked first; NS012 for an id taken there),
--     organization_move_out_finish on the source (its rows go, its path is free), and
--     organization_move_out_cancel (the mark goes, after a failure before the target committed).

create table lifecycle.id_range (
  singleton boolean primary key default true check (singleton),
  first_id bigint not null,
  last_id bigint not null,
  set_at timestamptz not null default pg_catalog.now(),
  constraint id_range_bounds check (first_id >= 1 and first_id <= last_id and last_id <= 4611686018427387903)
);
comment on table lifecycle.id_range is
  'The range this cluster hands out ids from, for every identity of the schema (id_range_set); no row: none set, every id.';

create table lifecycle.organization_moves (
  organization_id bigint primary key,
  path text not null,
  -- out: moving out of this cluster (finished_at null: every write refused, NS011), or moved out;
  -- in: moved in from peer.
  direction text not null check (direction in ('out', 'in')),
  peer text not null,
  started_at timestamptz not null,
  finished_at timestamptz,
  -- The session moving it out, by pid and role (what pg_stat_activity shows every role, as
  -- lifecycle.sweep_claims since 038): organization_move_claim.
  mover_pid int,
  mover_role oid,
  -- Rows moved or removed, by kind; while moving out, the record of an earlier move in (previous).
  summary jsonb not null default '{}'
);
comment on table lifecycle.organization_moves is
  'Organizations moving out of this cluster (writes refused with NS011), moved out (where to) and moved in (where from): organization_move_out_start, _finish, _cancel and organization_move_in write it.';

-- The rows organization_move_in reads, copied in by cmd/orgmove in the transaction that calls it,
-- and deleted by it: always empty between transactions. Unlogged: they live for one transaction.
create unlogged table lifecycle.organization_imports (
  organization_id bigint not null,
  kind text not null,
  data jsonb not null
);
comment on table lifecycle.organization_imports is
  'Staging for organization_move_in: the rows of organization_export, copied in by the transaction that calls it (which deletes them).';

insert into lifecycle.lock_rows (name, why) values
  ('id range', 'one id_range_set at a time: FOR UPDATE by id_range_set');

{{ template "functions/organization_moving_check.sql" . }}
{{ template "functions/namespace_lock_path.sql" . }}
{{ template "triggers/organization_moving_guard.sql" . }}
{{ template "functions/id_range_set.sql" . }}
{{ template "functions/organization_move_claim.sql" . }}
{{ template "snapshots/039/organization_move_out_start.sql" . }}
{{ template "functions/organization_export.sql" . }}
{{ template "snapshots/039/organization_move_in.sql" . }}
{{ template "functions/organization_move_out_finish.sql" . }}
{{ template "functions/organization_move_out_cancel.sql" . }}

revoke all on function lifecycle.organization_moving_check(bigint[]), lifecycle.organization_moving_guard(),
  lifecycle.id_range_set(bigint, bigint), lifecycle.organization_move_claim(bigint),
  lifecycle.organization_move_out_start(text, text), lifecycle.organization_export(bigint),
  lifecycle.organization_move_in(bigint, text), lifecycle.organization_move_out_finish(bigint),
  lifecycle.organization_move_out_cancel(text) from public;
-- The move and the ranges are an operator's: cmd/orgmove runs as a lifecycle_worker login.
grant execute on function lifecycle.id_range_set(bigint, bigint), lifecycle.organization_move_out_start(text, text),
  lifecycle.organization_export(bigint), lifecycle.organization_move_in(bigint, text),
  lifecycle.organization_move_out_finish(bigint), lifecycle.organization_move_out_cancel(text) to lifecycle_worker;
grant select on lifecycle.id_range, lifecycle.organization_moves to lifecycle_app, lifecycle_worker;
grant insert on lifecycle.organization_imports to lifecycle_worker;

-- Last, the one step that waits for the API's writers: the tables whose direct writes hold the
-- organization get their triggers (SHARE ROW EXCLUSIVE: writes wait, reads go on), locked all at
-- once first, in the order the writers take them.
lock table lifecycle.namespaces, lifecycle.namespace_members, lifecycle.webhooks in share row exclusive mode;
create trigger namespace_members_moving
  before insert or update or delete on lifecycle.namespace_members
  for each row execute function lifecycle.organization_moving_guard();
create trigger webhooks_moving
  before insert or update or delete on lifecycle.webhooks
  for each row execute function lifecycle.organization_moving_guard();
create trigger namespaces_2_moving
  before update of name on lifecycle.namespaces
  for each row execute function lifecycle.organization_moving_guard();

---- create above / drop below ----

-- The sequences keep the range id_range_set gave them: ids handed out stay in it.
-- First, as in the up: the triggers' tables locked all at once, in the writers' order (DROP
-- TRIGGER takes ACCESS EXCLUSIVE: reads wait too, for this step only).
lock table lifecycle.namespaces, lifecycle.namespace_members, lifecycle.webhooks in access exclusive mode;
drop trigger namespaces_2_moving on lifecycle.namespaces;
drop trigger webhooks_moving on lifecycle.webhooks;
drop trigger namespace_members_moving on lifecycle.namespace_members;
{{ template "snapshots/033/namespace_lock_path.sql" . }}
drop function lifecycle.organization_move_out_cancel(text);
drop function lifecycle.organization_move_out_finish(bigint);
drop function lifecycle.organization_move_in(bigint, text);
drop function lifecycle.organization_export(bigint);
drop function lifecycle.organization_move_out_start(text, text);
drop function lifecycle.organization_move_claim(bigint);
drop function lifecycle.id_range_set(bigint, bigint);
drop function lifecycle.organization_moving_guard();
drop function lifecycle.organization_moving_check(bigint[]);
delete from lifecycle.lock_rows where name = 'id range';
drop table lifecycle.organization_imports;
drop table lifecycle.organization_moves;
drop table lifecycle.id_range;
