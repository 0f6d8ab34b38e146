-- Whether a namespace in ns_state (with preserved_state, the permanent state it will return to)
-- is in a bridged state as the legacy data tells it (docs/design.md §10): archived also while a
-- temporary state preserves archived (an archived project scheduled for deletion keeps its
-- legacy archived flag); deletion_scheduled also while that deletion runs (GitLab keeps
-- marked_for_deletion_at then); the others only as they are.
create function lifecycle.legacy_bridge_says(bridge_state smallint, ns_state smallint, preserved_state text)
returns boolean
language sql
immutable
parallel safe
return case bridge_state
  when 1 then ns_state = 1 or (ns_state not in (0, 1) and preserved_state = 'archived')
  when 2 then ns_state in (2, 4)
  else ns_state = bridge_state
end;
