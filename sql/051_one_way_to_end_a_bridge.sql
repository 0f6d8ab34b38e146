-- The three kinds of bridge ended the same way in three copies (legacy_bridge_drop,
-- legacy_tree_bridge_drop, legacy_members_bridge_drop: the registry rows, the table's trigger,
-- the lifecycle table's trigger with the last bridge); now each says which registry and triggers
-- are its own and legacy_bridge_unhook does it once. Their signatures, grants and what they do are
-- unchanged (tests/legacy_bridge/, tests/legacy_tree_bridge/, tests/legacy_members_bridge/).

{{ template "functions/legacy_bridge_unhook.sql" . }}
revoke all on function lifecycle.legacy_bridge_unhook(regclass, regclass, name, regclass, name) from public;
{{ template "functions/legacy_bridge_drop.sql" . }}
{{ template "functions/legacy_tree_bridge_drop.sql" . }}
{{ template "functions/legacy_members_bridge_drop.sql" . }}

---- create above / drop below ----

{{ template "snapshots/044/legacy_bridge_drop.sql" . }}
{{ template "snapshots/047/legacy_members_bridge_drop.sql" . }}
-- 037's version says create, not create or replace: replaced in place (its grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/037/legacy_tree_bridge_drop.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
drop function lifecycle.legacy_bridge_unhook(regclass, regclass, name, regclass, name);
