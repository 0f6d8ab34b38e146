-- End a legacy table's tree bridge (docs/design.md §10.3): its trigger goes, and the namespaces'
-- trigger with the last tree bridge (legacy_bridge_unhook). The legacy rows and the lifecycle's
-- tree stay as they are. Returns how many tree bridges were dropped (0 or 1).
create or replace function lifecycle.legacy_tree_bridge_drop(source regclass)
returns int
language sql
set search_path to ''
return lifecycle.legacy_bridge_unhook('lifecycle.legacy_tree_bridges', source, 'lifecycle_0_legacy_tree',
                                      'lifecycle.namespaces', 'namespaces_6_legacy_tree');

comment on function lifecycle.legacy_tree_bridge_drop(regclass) is
  'End a legacy table''s tree bridge (its trigger, and the namespaces'' with the last one); returns how many.';
