-- The bridges' columns found by the catalog's index. While legacy bridges exist, every change
-- takes step 0.5 of the lock order (namespace_lock -> legacy_bridge_lock), and every change into a
-- state of the namespace's own asks whether a tree bridge's table holds it (legacy_bridge_sync ->
-- legacy_tree_holds); both statements joined the bridges to pg_attribute, and their generic plans
-- hashed all of pg_attribute at every call (so did the tree bridges' deletion of a namespace's
-- state-bridged rows, legacy_tree_state). Each now probes pg_attribute's index once per bridge.
-- An API transition (the bench's archive/unarchive of its 100k tree's targets, projects; callgrind,
-- 550 - 150 transactions / 400), 2.53 M instructions without bridges:
--   one state bridge of organizations and groups (a settings table): 5.28 M -> 3.24 M;
--   as GitLab's: that, a state bridge and a tree bridge of a projects table: 14.99 M -> 4.45 M.
-- What is locked, asked and deleted, and in which order, is unchanged.
--
-- Locks: none on a table; the functions are replaced in place (their grants stay).

{{ template "functions/legacy_bridge_lock.sql" . }}
{{ template "functions/legacy_tree_holds.sql" . }}
{{ template "triggers/legacy_tree_state.sql" . }}

---- create above / drop below ----

{{ template "snapshots/037/legacy_bridge_lock.sql" . }}
-- 037's versions say create, not create or replace: replaced in place (their grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_tree_holds.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_tree_state.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
