-- Whether a namespace in ns_state (with preserved_state, the permanent state it will return to)
-- is in a bridged state as the legacy data tells it (docs/design.md §10), from the states' rows:
-- a permanent state (archived) also while a temporary state preserves it (an archived project
-- scheduled for deletion keeps its legacy archived flag); an adjourned deletion
-- (deletion_scheduled) also while the namespace's deletion is pending, running included (GitLab
-- keeps marked_for_deletion_at then); the others only as they are. IMMUTABLE SQL over the named
-- predicates, so the check inlines it and folds it for each bridged code.
create or replace function lifecycle.legacy_bridge_says(bridge_state smallint, ns_state smallint, preserved_state text)
returns boolean
language sql
immutable
parallel safe
return ns_state = bridge_state
  or (lifecycle.state_deletion_adjourned(bridge_state) and not lifecycle.state_path_live(ns_state))
  or (lifecycle.state_permanent(bridge_state) and not lifecycle.state_permanent(ns_state)
      and preserved_state = (lifecycle.state_names())[bridge_state]);
