-- Adoption, part 2: the legacy bridge (docs/design.md §10; the design's iterations 3 and 4). While
-- an application moves from its legacy columns to lifecycle states piece by piece, a bridge keeps
-- both in step in the same transaction, both ways: a legacy change moves the state through the
-- gate (and a refusal refuses it), a state change writes the legacy data. legacy_bridge_check
-- reports every disagreement, legacy_bridge_backfill sets states from the legacy data as the
-- import does, legacy_bridge_drop ends a bridge at cutover.
--
-- For the bridge, a change of state may carry the time it happened (namespace_change_state's
-- changed_at: the history row and the deletion date keep the legacy time), and the legacy
-- bridge's operation is the authority of the changes it carries (the application's old code
-- decided them; their actor is attribution only). The backfill writes states set-based with
-- lifecycle.importing set, which the UPDATE-of-state triggers now heed too (every other change of
-- state goes through namespace_change_state, which clears it).

create table lifecycle.legacy_bridges (
  id bigint generated always as identity primary key,
  -- The bridged table: a regclass, so a renamed table stays bridged; its columns by attribute
  -- number, so renamed columns do too (legacy_bridge_column resolves and checks them).
  source regclass not null,
  state smallint not null references lifecycle.states (code),
  -- flag: a boolean column is true; value: a date or time column is not null; exists: a row exists.
  kind text not null check (kind in ('flag', 'value', 'exists')),
  namespace_attnum smallint not null,
  when_attnum smallint,
  at_attnum smallint,
  by_attnum smallint,
  -- The namespace types the bridge speaks for (null: all).
  namespace_types text[],
  created_at timestamptz not null default pg_catalog.now(),
  constraint legacy_bridges_source_state_key unique (source, state),
  constraint legacy_bridges_condition check ((kind = 'exists') = (when_attnum is null))
);

comment on table lifecycle.legacy_bridges is
  'Legacy columns and tables kept in step with the states, both ways (lifecycle.legacy_bridge_add).';

drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text);
{{ template "snapshots/014/namespace_change_state.sql" . }}
{{ template "snapshots/014/transition_refusal.sql" . }}
{{ template "snapshots/014/namespaces_state_gate.sql" . }}
{{ template "snapshots/014/namespaces_state_record.sql" . }}
{{ template "functions/legacy_bridge_attnum.sql" . }}
{{ template "functions/legacy_bridge_column.sql" . }}
{{ template "snapshots/014/legacy_bridge_says.sql" . }}
{{ template "snapshots/014/legacy_bridge_holds.sql" . }}
{{ template "snapshots/014/legacy_bridge_write.sql" . }}
{{ template "snapshots/014/legacy_bridge_apply.sql" . }}
{{ template "snapshots/014/legacy_bridge_sync.sql" . }}
{{ template "snapshots/014/legacy_bridge_source.sql" . }}
{{ template "snapshots/014/legacy_bridge_state.sql" . }}
{{ template "snapshots/014/legacy_bridge_rows.sql" . }}
{{ template "snapshots/014/legacy_bridge_check.sql" . }}
{{ template "snapshots/014/legacy_bridge_backfill.sql" . }}
{{ template "snapshots/014/legacy_bridge_add.sql" . }}
{{ template "snapshots/014/legacy_bridge_drop.sql" . }}

revoke all on all functions in schema lifecycle from public;
-- Adding and dropping bridges is the schema owner's (it puts triggers on lifecycle.namespaces);
-- checking and backfilling is the operator's.
grant select on lifecycle.legacy_bridges to lifecycle_app, lifecycle_worker;
grant execute on function lifecycle.legacy_bridge_check(), lifecycle.legacy_bridge_backfill() to lifecycle_worker;

---- create above / drop below ----

-- Bridges still in place lose their triggers.
do $down$
declare
  src regclass;
begin
  for src in select distinct b.source from lifecycle.legacy_bridges b loop
    perform lifecycle.legacy_bridge_drop(src);
  end loop;
end
$down$;
drop trigger if exists namespaces_5_legacy_bridge on lifecycle.namespaces;
drop function lifecycle.legacy_bridge_drop(regclass);
drop function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[]);
drop function lifecycle.legacy_bridge_backfill();
drop function lifecycle.legacy_bridge_check();
drop function lifecycle.legacy_bridge_rows();
drop function lifecycle.legacy_bridge_state();
drop function lifecycle.legacy_bridge_source();
drop function lifecycle.legacy_bridge_sync(bigint);
drop function lifecycle.legacy_bridge_apply(smallint, bigint, timestamptz, bigint);
drop function lifecycle.legacy_bridge_write(lifecycle.legacy_bridges, bigint, boolean, timestamptz, bigint);
drop function lifecycle.legacy_bridge_holds(lifecycle.legacy_bridges, bigint, text);
drop function lifecycle.legacy_bridge_says(smallint, smallint, text);
drop function lifecycle.legacy_bridge_column(regclass, smallint);
drop function lifecycle.legacy_bridge_attnum(regclass, name, regtype[], text, text);
{{ template "snapshots/013/namespaces_state_record.sql" . }}
{{ template "snapshots/013/namespaces_state_gate.sql" . }}
{{ template "snapshots/011/transition_refusal.sql" . }}
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz);
{{ template "snapshots/011/namespace_change_state.sql" . }}
drop table lifecycle.legacy_bridges;

revoke all on all functions in schema lifecycle from public;
