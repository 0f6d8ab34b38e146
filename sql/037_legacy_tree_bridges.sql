-- Adoption on GitLab's real tables (issue 26): the tree in step both ways, not only the states.
--
-- Tree bridges (docs/design.md §10.3): a legacy table whose rows name namespaces (GitLab's
-- namespaces: groups, users, project namespaces; projects: the projects, under
-- project_namespace_id) is bridged once, by its id, parent, path, name, visibility and type
-- columns (kept as attribute numbers, checked against the catalog at each use, like the state
-- bridges'). Legacy -> lifecycle, in the same transaction, through the gate: an INSERT creates
-- the namespace with the legacy id (the identity sequence moved past it), a new path renames it
-- (the legacy path kept resolving, case included), a new parent moves it (a transfer: its rules
-- and guards), a new visibility or name sets it, a DELETE hard-deletes it (the snapshot in
-- deleted_namespaces, the path freed, the fact in the outbox). Lifecycle -> legacy: every change
-- of the tree, whatever its write path, written to the bridged rows (inserted, set, deleted). A
-- table speaks for the types it is given (projects for projects; namespaces for groups and users);
-- the others' rows follow. Step 0.5 of the lock order takes the tree-bridged rows too.
--
-- GitLab's code paths on those tables, with the state bridges (issue 26, point 4):
--   * a bridged state the matrix does not reach from the current one is reached by way of the one
--     it passes (legacy_bridge_apply): "delete immediately", pending_delete on a project not
--     marked, schedules and starts its deletion (was NS001);
--   * a by column the table requires takes the bridge's actor when a change names nobody
--     (legacy_bridge_write: GitLab's group_deletion_schedules.user_id, NOT NULL; was 23502);
--   * a flag or column bridge may insert the row a namespace lacks (insert_missing, a new column
--     and argument of legacy_bridge_add: archiving a group without a namespace_settings row);
--   * a state the legacy tables cannot say of a namespace they hold is refused while the bridges
--     are installed (legacy_bridge_sync, NS001: an archived or scheduled user namespace);
--   * the bridges' writes run the application's triggers with the table's schema as search_path.
--
-- Every legacy path resolves to what it named, case included (point 5): the import keeps a legacy
-- path with capitals as a redirect of its own (kind import) when folding its case would lead to
-- another namespace, and namespace_resolve looks a path with capitals up as given among those
-- first, then folds case as before.

create table lifecycle.legacy_tree_bridges (
  id bigint generated always as identity primary key,
  source regclass not null,
  id_attnum smallint not null,
  parent_attnum smallint not null,
  path_attnum smallint not null,
  name_attnum smallint not null,
  visibility_attnum smallint,
  type_attnum smallint,
  -- With type_attnum: a JSON object, legacy type value -> lifecycle type; without: a JSON string,
  -- the one lifecycle type of every row.
  types jsonb not null,
  speaks_for text[] not null,
  actor_id bigint,
  row_defaults jsonb not null default '{}',
  created_at timestamptz not null default pg_catalog.now(),
  constraint legacy_tree_bridges_source_key unique (source),
  constraint legacy_tree_bridges_types check (pg_catalog.jsonb_typeof(types) = case when type_attnum is null then 'string' else 'object' end)
);

comment on table lifecycle.legacy_tree_bridges is
  'Legacy tables whose rows name namespaces, kept in step with the tree both ways (lifecycle.legacy_tree_bridge_add).';

grant select on lifecycle.legacy_tree_bridges to lifecycle_app, lifecycle_worker;

alter table lifecycle.legacy_bridges add column insert_missing boolean not null default false;
comment on column lifecycle.legacy_bridges.insert_missing is
  'A flag or column bridge that speaks for every namespace of its types: no row is its condition off, and the write-back inserts the row when the condition turns on.';

{{ template "functions/legacy_path_suffixed.sql" . }}
{{ template "functions/legacy_path_matches.sql" . }}
{{ template "snapshots/037/legacy_path_redirect.sql" . }}
{{ template "snapshots/037/legacy_tree_final_path.sql" . }}
{{ template "functions/legacy_tree_broken.sql" . }}
{{ template "functions/legacy_tree_refuse.sql" . }}
{{ template "functions/legacy_tree_row.sql" . }}
{{ template "functions/legacy_tree_update.sql" . }}
{{ template "functions/legacy_tree_create.sql" . }}
{{ template "snapshots/037/legacy_tree_delete.sql" . }}
{{ template "functions/legacy_tree_write.sql" . }}
{{ template "triggers/legacy_tree_source.sql" . }}
{{ template "snapshots/037/legacy_tree_state.sql" . }}
{{ template "snapshots/037/legacy_tree_bridge_add.sql" . }}
{{ template "snapshots/037/legacy_tree_bridge_drop.sql" . }}
{{ template "snapshots/037/legacy_bridge_lock.sql" . }}
{{ template "snapshots/037/namespace_lock.sql" . }}
{{ template "snapshots/037/legacy_tree_holds.sql" . }}
{{ template "functions/legacy_bridge_holds.sql" . }}
{{ template "functions/legacy_bridge_rows.sql" . }}
{{ template "functions/legacy_bridge_write.sql" . }}
{{ template "snapshots/037/legacy_bridge_apply.sql" . }}
{{ template "snapshots/037/legacy_bridge_sync.sql" . }}
drop function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint);
{{ template "snapshots/037/legacy_bridge_add.sql" . }}
{{ template "snapshots/037/namespace_resolve.sql" . }}
{{ template "snapshots/037/namespace_import_batch.sql" . }}

revoke all on function lifecycle.legacy_path_suffixed(text, bigint), lifecycle.legacy_path_matches(text, text, bigint),
  lifecycle.legacy_path_redirect(bigint, text, bigint), lifecycle.legacy_tree_final_path(text, bigint, bigint),
  lifecycle.legacy_tree_broken(lifecycle.legacy_tree_bridges), lifecycle.legacy_tree_refuse(lifecycle.legacy_tree_bridges, text, bigint),
  lifecycle.legacy_tree_row(lifecycle.legacy_tree_bridges, jsonb),
  lifecycle.legacy_tree_update(lifecycle.legacy_tree_bridges, bigint, bigint, text, text, text, text),
  lifecycle.legacy_tree_create(lifecycle.legacy_tree_bridges, bigint, bigint, text, text, text, text),
  lifecycle.legacy_tree_delete(lifecycle.legacy_tree_bridges, bigint),
  lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges, text, bigint, bigint, text, text, text, text),
  lifecycle.legacy_tree_source(), lifecycle.legacy_tree_state(),
  lifecycle.legacy_tree_bridge_add(regclass, name, name, name, name, name, name, jsonb, text[], bigint, jsonb),
  lifecycle.legacy_tree_bridge_drop(regclass), lifecycle.legacy_tree_holds(bigint, text),
  lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint, boolean) from public;

---- create above / drop below ----

-- The two tables changed below, locked first and together, in the order the API's writers read
-- them (namespace_lock: legacy_bridges, then legacy_tree_bridges): taken one after the other, the
-- second waited for writers that held the first and queued behind it, and under a steady load
-- every attempt timed out (the bench's upgrade scenario, 38 -> 37). No lock on
-- lifecycle.namespaces: its trigger goes with the last tree bridge, and there is none to drop
-- when no tree bridge is left.
lock table lifecycle.legacy_bridges, lifecycle.legacy_tree_bridges in access exclusive mode;
-- Tree bridges still in place lose their triggers.
do $down$
declare
  src regclass;
begin
  for src in select t.source from lifecycle.legacy_tree_bridges t loop
    perform lifecycle.legacy_tree_bridge_drop(src);
  end loop;
end
$down$;
{{ template "snapshots/011/namespace_resolve.sql" . }}
{{ template "snapshots/036/namespace_import_batch.sql" . }}
drop function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint, boolean);
{{ template "snapshots/033/legacy_bridge_add.sql" . }}
revoke all on function lifecycle.legacy_bridge_add(regclass, name, text, name, name, name, text[], bigint) from public;
{{ template "snapshots/033/legacy_bridge_sync.sql" . }}
{{ template "snapshots/033/legacy_bridge_apply.sql" . }}
{{ template "snapshots/033/legacy_bridge_rows.sql" . }}
{{ template "snapshots/033/legacy_bridge_holds.sql" . }}
-- 014's version says create, not create or replace: replaced in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_write.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.legacy_tree_holds(bigint, text);
{{ template "snapshots/033/namespace_lock.sql" . }}
-- 033's version says create, not create or replace: replaced in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/033/legacy_bridge_lock.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.legacy_tree_bridge_drop(regclass);
drop function lifecycle.legacy_tree_bridge_add(regclass, name, name, name, name, name, name, jsonb, text[], bigint, jsonb);
drop function lifecycle.legacy_tree_state();
drop function lifecycle.legacy_tree_source();
drop function lifecycle.legacy_tree_write(lifecycle.legacy_tree_bridges, text, bigint, bigint, text, text, text, text);
drop function lifecycle.legacy_tree_delete(lifecycle.legacy_tree_bridges, bigint);
drop function lifecycle.legacy_tree_create(lifecycle.legacy_tree_bridges, bigint, bigint, text, text, text, text);
drop function lifecycle.legacy_tree_update(lifecycle.legacy_tree_bridges, bigint, bigint, text, text, text, text);
drop function lifecycle.legacy_tree_row(lifecycle.legacy_tree_bridges, jsonb);
drop function lifecycle.legacy_tree_refuse(lifecycle.legacy_tree_bridges, text, bigint);
drop function lifecycle.legacy_tree_broken(lifecycle.legacy_tree_bridges);
drop function lifecycle.legacy_tree_final_path(text, bigint, bigint);
drop function lifecycle.legacy_path_redirect(bigint, text, bigint);
drop function lifecycle.legacy_path_matches(text, text, bigint);
drop function lifecycle.legacy_path_suffixed(text, bigint);
drop table lifecycle.legacy_tree_bridges;
alter table lifecycle.legacy_bridges drop column insert_missing;
