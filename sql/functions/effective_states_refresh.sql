-- Rebuild lifecycle.effective_states whole from its definition (effective_states_computed),
-- without blocking its readers: rows that differ are updated, missing ones inserted, those of
-- namespaces gone deleted. The syncer keeps the table current change by change
-- (effective_states_apply); this is for a syncer starting on a database whose table is behind
-- (it calls it when the table is empty), after a TRUNCATE or a backfill, and for operators after a
-- restore. O(table): seconds at a million namespaces.
create or replace function lifecycle.effective_states_refresh()
returns void
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
begin
  -- One writer at a time, as in effective_states_apply (whose lock this is).
  lock table lifecycle.effective_states in share row exclusive mode;
  insert into lifecycle.effective_states as e
  select * from lifecycle.effective_states_computed c
  on conflict (namespace_id) do update
     set state = excluded.state, effective_state = excluded.effective_state,
         inherited_from_namespace_id = excluded.inherited_from_namespace_id,
         self_or_ancestor_archived = excluded.self_or_ancestor_archived,
         self_or_ancestor_deletion_scheduled = excluded.self_or_ancestor_deletion_scheduled,
         read_only = excluded.read_only, full_path = excluded.full_path
   where (e.state, e.effective_state, e.inherited_from_namespace_id, e.self_or_ancestor_archived,
          e.self_or_ancestor_deletion_scheduled, e.read_only, e.full_path)
         is distinct from
         (excluded.state, excluded.effective_state, excluded.inherited_from_namespace_id, excluded.self_or_ancestor_archived,
          excluded.self_or_ancestor_deletion_scheduled, excluded.read_only, excluded.full_path);
  delete from lifecycle.effective_states e
   where not exists (select from lifecycle.namespaces n where n.id = e.namespace_id);
end
$$;
