-- The transition matrix (docs/design.md §3, ADR 003): the allowed pairs of states. from_state null
-- is creation ([*] in ADR 001): a new row may start only in a state that has a creation row here.
-- Every pair not listed is refused with NS001. Read through the rules' digest (transition_rule,
-- written by transition_rules_write), not per change.
create table lifecycle.state_transitions (
  from_state smallint,
  to_state smallint not null,
  reason text not null,
  -- The audit action of the change, the action of its fact.
  audit_action text not null,
  constraint state_transitions_pair_key unique nulls not distinct (from_state, to_state),
  constraint state_transitions_change check ((from_state <> to_state)),
  constraint state_transitions_from_state_fkey foreign key (from_state) references lifecycle.states(code),
  constraint state_transitions_to_state_fkey foreign key (to_state) references lifecycle.states(code)
);

comment on table lifecycle.state_transitions is
  'docs/design.md §3 transition matrix (ADR 003), one row per allowed pair; from_state null = creation.';

insert into lifecycle.state_transitions (from_state, to_state, reason, audit_action) values
  (null, 0, 'Create a namespace.', 'namespace_created'),
  (null, 3, 'Create a namespace whose creation runs asynchronously.', 'namespace_created'),
  (0, 1, 'Archive.', 'archived'),
  (0, 2, 'Schedule deletion.', 'deletion_scheduled'),
  (0, 5, 'Transfer a namespace.', 'transfer_started'),
  (0, 6, 'Enter maintenance.', 'maintenance_started'),
  (1, 0, 'Unarchive.', 'unarchived'),
  (1, 2, 'Schedule deletion of archived namespace.', 'deletion_scheduled'),
  (1, 5, 'Transfer archived namespace.', 'transfer_started'),
  (2, 0, 'Restore from delete.', 'restored'),
  (2, 1, 'Deletion triggered from archived namespace (restore to archived).', 'restored'),
  (2, 4, 'Start deletion of the namespace.', 'deletion_started'),
  (3, 0, 'Creation complete.', 'creation_completed'),
  (3, 4, 'Fatal creation failure.', 'deletion_started'),
  (4, 0, 'Deletion failure. Skip deletion_scheduled to avoid infinite retry loop.', 'deletion_failed'),
  (4, 1, 'Deletion triggered from archived namespace failed. Skip deletion_scheduled to prevent retry loop.', 'deletion_failed'),
  (4, 2, 'Deletion failure. Requeue for retry.', 'deletion_failed'),
  (5, 0, 'Transfer complete.', 'transfer_finished'),
  (5, 1, 'Allow transfer to complete for archived item.', 'transfer_finished'),
  (6, 0, 'Maintenance over.', 'maintenance_ended');
