-- Rebuild lifecycle.effective_states whole, without blocking its readers: rows that differ are
-- updated, missing ones inserted, those of namespaces gone deleted. The syncer keeps the table
-- current change by change (effective_states_apply); this is for a syncer starting (facts an
-- earlier run recorded but had not applied are not sent again), after a TRUNCATE or a backfill,
-- and for operators after a restore. O(table): seconds at a million namespaces.
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
  -- Every root's subtree, as effective_states_apply writes one (the one writer of the rows);
  -- effective_states_computed, the recursive definition, stays the independent reference that
  -- effective_states_verify compares with.
  perform lifecycle.effective_states_write(array(select n.id from lifecycle.namespaces n where n.parent_id is null));
  delete from lifecycle.effective_states e
   where not exists (select from lifecycle.namespaces n where n.id = e.namespace_id);
end
$$;
