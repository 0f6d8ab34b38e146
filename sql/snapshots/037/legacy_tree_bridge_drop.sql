-- End a legacy table's tree bridge (docs/design.md §10.3): its trigger goes, and the namespaces'
-- trigger with the last tree bridge. The legacy rows and the lifecycle's tree stay as they are.
-- Returns how many tree bridges were dropped (0 or 1).
create function lifecycle.legacy_tree_bridge_drop(source regclass)
returns int
language plpgsql
set search_path to ''
as $$
#variable_conflict use_variable
declare
  dropped int;
begin
  delete from lifecycle.legacy_tree_bridges t where t.source = source;
  get diagnostics dropped = row_count;
  if exists (select from pg_catalog.pg_trigger t where t.tgrelid = source and t.tgname = 'lifecycle_0_legacy_tree') then
    execute pg_catalog.format('drop trigger lifecycle_0_legacy_tree on %s', source);
  end if;
  if not exists (select from lifecycle.legacy_tree_bridges) then
    drop trigger if exists namespaces_6_legacy_tree on lifecycle.namespaces;
  end if;
  return dropped;
end
$$;

comment on function lifecycle.legacy_tree_bridge_drop(regclass) is
  'End a legacy table''s tree bridge (its trigger, and the namespaces'' with the last one); returns how many.';
