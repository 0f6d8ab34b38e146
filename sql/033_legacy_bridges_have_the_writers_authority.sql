-- Legacy bridges have the writer's authority, take their rows in the global lock order, and break
-- only themselves (issue 23, points 3-6 and 11's bridge part; docs/design.md §10.2):
--   * a legacy write is judged like the writing role's API call on behalf of the actor the legacy
--     row names (by_column), else the bridge's configured actor (legacy_bridges.actor_id, a new
--     argument of legacy_bridge_add), else the system, which only lifecycle_worker members and
--     superusers may act as: through a bridge lifecycle_app no longer restores past the grace
--     period (NS007), starts a deletion while delete_now_allowed is false (NS005), or acts as the
--     system. transition_refusal no longer exempts the operation legacy_bridge; the history row
--     and the fact say source bridge (namespace_change_state's new argument source);
--   * legacy_bridge_backfill judges each namespace by transition_refusal first (as the system,
--     deepest first), applies only what the rules allow, and returns how many it backfilled, how
--     many it refused and the refusals (it returned a count);
--   * step 0.5 of the global lock order (namespace_lock_path): the API takes the namespace's
--     bridged legacy rows before its own locks (legacy_bridge_lock, from namespace_lock), so a
--     legacy write and an API change of one namespace no longer deadlock;
--   * a bridge whose table is altered or dropped (legacy_bridge_broken, checked against the catalog
--     at use) is skipped for namespaces it has no row of, and refuses with NS010 naming it and its
--     repair a change of one it has (legacy_bridge_usable, legacy_bridge_refuse); errors of its
--     write-back are converted to that NS010 too.

alter table lifecycle.legacy_bridges add column actor_id bigint;
comment on column lifecycle.legacy_bridges.actor_id is
  'The user a legacy write is made on behalf of when its row names none (no by column, or null there); null: the system, which only lifecycle_worker members and superusers may act as.';

-- NOT VALID: every row satisfies the narrower check it replaces, and validating would read the
-- whole history under ACCESS EXCLUSIVE, stalling its readers.
alter table lifecycle.namespace_state_updates drop constraint namespace_state_updates_source_check;
alter table lifecycle.namespace_state_updates
  add constraint namespace_state_updates_source_check check (source in ('api', 'sql', 'import', 'bridge')) not valid;

{{ template "functions/legacy_bridge_broken.sql" . }}
{{ template "functions/legacy_bridge_refuse.sql" . }}
{{ template "functions/legacy_bridge_usable.sql" . }}
{{ template "snapshots/033/legacy_bridge_lock.sql" . }}
{{ template "snapshots/033/transition_refusal.sql" . }}
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz);
{{ template "snapshots/033/namespace_change_state.sql" . }}
{{ template "snapshots/033/namespace_lock_path.sql" . }}
{{ template "snapshots/033/namespace_lock.sql" . }}
{{ template "snapshots/033/legacy_bridge_holds.sql" . }}
{{ template "snapshots/033/legacy_bridge_apply.sql" . }}
{{ template "snapshots/033/legacy_bridge_sync.sql" . }}
{{ template "triggers/legacy_bridge_source.sql" . }}
{{ template "snapshots/033/legacy_bridge_rows.sql" . }}
drop function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[]);
{{ template "snapshots/033/legacy_bridge_add.sql" . }}
drop function lifecycle.legacy_bridge_backfill();
{{ template "snapshots/033/legacy_bridge_backfill.sql" . }}

revoke all on function lifecycle.legacy_bridge_broken(lifecycle.legacy_bridges),
  lifecycle.legacy_bridge_refuse(lifecycle.legacy_bridges, text, bigint),
  lifecycle.legacy_bridge_usable(lifecycle.legacy_bridges, bigint), lifecycle.legacy_bridge_lock(bigint, text),
  lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz, text),
  lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint),
  lifecycle.legacy_bridge_backfill() from public;
grant execute on function lifecycle.legacy_bridge_backfill() to lifecycle_worker;

---- create above / drop below ----

-- The two tables changed at the end, locked first and in the order the API's writers take them
-- (every change reads legacy_bridges, then writes its history): locked one after the other, the
-- second waited for writers that held legacy_bridges and queued behind the first, and under a
-- steady load every attempt timed out (issue 25: 10 of 10 at 100k under 4 writers).
lock table lifecycle.legacy_bridges, lifecycle.namespace_state_updates in access exclusive mode;
drop function lifecycle.legacy_bridge_backfill();
{{ template "snapshots/032/legacy_bridge_backfill.sql" . }}
revoke all on function lifecycle.legacy_bridge_backfill() from public;
grant execute on function lifecycle.legacy_bridge_backfill() to lifecycle_worker;
drop function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint);
{{ template "snapshots/014/legacy_bridge_add.sql" . }}
revoke all on function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[]) from public;
{{ template "snapshots/032/legacy_bridge_source.sql" . }}
{{ template "snapshots/032/legacy_bridge_sync.sql" . }}
{{ template "snapshots/032/legacy_bridge_apply.sql" . }}
-- The versions of 014 say create, not create or replace: replaced in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_rows.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_holds.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
{{ template "snapshots/031/namespace_lock.sql" . }}
{{ template "snapshots/031/namespace_lock_path.sql" . }}
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz, text);
{{ template "snapshots/024/namespace_change_state.sql" . }}
revoke all on function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz) from public;
{{ template "snapshots/032/transition_refusal.sql" . }}
drop function lifecycle.legacy_bridge_lock(bigint, text);
drop function lifecycle.legacy_bridge_usable(lifecycle.legacy_bridges, bigint);
drop function lifecycle.legacy_bridge_refuse(lifecycle.legacy_bridges, text, bigint);
drop function lifecycle.legacy_bridge_broken(lifecycle.legacy_bridges);
update lifecycle.namespace_state_updates set source = 'api' where source = 'bridge';
alter table lifecycle.namespace_state_updates drop constraint namespace_state_updates_source_check;
-- Accepted (sql/README.md, Migrations without stalls): back to 032's check, which is validated: NOT
-- VALID would leave another schema than 032 did. It reads the whole history under ACCESS EXCLUSIVE
-- (the history's readers wait): going back past 033 is a maintenance-window operation.
alter table lifecycle.namespace_state_updates
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespace_state_updates_source_check check (source in ('api', 'sql', 'import'));
alter table lifecycle.legacy_bridges drop column actor_id;
