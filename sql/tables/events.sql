-- ADR 001's events: each leads the namespaces it applies to (lifecycle.event_sources) to a state.
-- Called by name through namespace_event; read through the rules' digest (event_rule). An event a
-- history row names is not deleted or renamed (events_in_use_guard, 23503): add a new one instead.
create table lifecycle.events (
  name text not null,
  target_state smallint not null,
  -- When set, the key of the namespace's state_metadata that names the state to return to, taken
  -- when the matrix allows the change from there; else target_state.
  target_key text,
  description text not null,
  constraint events_pkey primary key (name),
  constraint events_target_key_check check ((target_key = any (array['preserved_state'::text, 'previous_state'::text]))),
  constraint events_target_state_fkey foreign key (target_state) references lifecycle.states(code)
);

insert into lifecycle.events (name, target_state, target_key, description) values
  ('archive', 1, null, 'Archive.'),
  ('creation_done', 0, null, 'Creation finished.'),
  ('deletion_failed', 2, 'previous_state', 'The hard delete failed: back to where it was (requeued as deletion_scheduled).'),
  ('deletion_start', 4, null, 'Begin the hard delete (after the grace period, delete now, or a fatal creation failure).'),
  ('maintain', 6, null, 'Enter maintenance.'),
  ('restore', 0, 'preserved_state', 'Undo a scheduled deletion: back to the state it had before.'),
  ('schedule_deletion', 2, null, 'Soft-delete; restorable during the grace period.'),
  ('transfer_done', 0, 'preserved_state', 'The move finished: back to the state it had before.'),
  ('transfer_start', 5, null, 'Begin moving the subtree.'),
  ('unarchive', 0, null, 'Unarchive.'),
  ('unmaintain', 0, 'preserved_state', 'Leave maintenance: back to the state it had before.');
