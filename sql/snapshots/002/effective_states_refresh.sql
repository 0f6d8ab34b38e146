-- Refresh lifecycle.effective_states without blocking its readers. The syncer calls it (debounced);
-- a view can be refreshed only by its owner, hence definer. Two refreshes at once would queue on
-- the view's lock anyway; the syncer never starts a second.
create or replace function lifecycle.effective_states_refresh()
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  refresh materialized view concurrently lifecycle.effective_states;
end
$$;
