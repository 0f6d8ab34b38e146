-- The ADR 001 states, one row per code, with every property a statement asks of one. Statements ask
-- the named predicates its trigger writes from the rows (states_digest_write: state_is_own,
-- state_path_live, …), never a code. A state a namespace is in or a history row names is not
-- deleted, renumbered or renamed (states_in_use_guard, 23503); a change that would alter an answer
-- an index depends on is refused (2BP01).
create table lifecycle.states (
  code smallint not null,
  name text not null,
  -- Another name clients may use: "active" for code 0 (ADR 003 calls it so).
  alias text,
  description text not null,
  -- ADR 001: "permanent state until human action"; every other state is temporary, and the events
  -- that end it return to the namespace's last permanent state (preserved_state).
  permanent boolean not null,
  -- On a namespace or any ancestor, this state makes the namespace read-only (docs/design.md §2).
  read_only boolean not null,
  -- On a namespace or any ancestor, this state means the namespace is pending deletion; a namespace
  -- in it frees its path (state_path_live).
  pending_deletion boolean not null,
  operation text,
  operation_enters boolean default false not null,
  inherited boolean default false not null,
  deletion_adjourned boolean default false not null,
  being_created boolean default false not null,
  constraint states_pkey primary key (code),
  constraint states_alias_key unique (alias),
  constraint states_name_key unique (name),
  -- A code is a bit of the path's mask (state_flag_mask, a bigint) and the low six bits of the packed
  -- nearest state (namespace_effective_state), so codes stay below 64.
  constraint states_code_is_a_bit check (((code >= 0) and (code <= 63)))
);

comment on table lifecycle.states is
  'ADR 001 state codes. Clients speak names; "active" is accepted everywhere as the name of code 0.';
comment on column lifecycle.states.operation is
  'The operation that owns this state: only its own code path, or a worker or superuser, moves a namespace out of it.';
comment on column lifecycle.states.operation_enters is
  'The operation (states.operation) also enters this state itself: only its own code path, or a superuser, moves a namespace into it (the transfer writes the accepted request that finishes it).';
comment on column lifecycle.states.inherited is
  'No state of its own: a namespace in it takes its effective state from the path (lifecycle.state_is_own is false).';
comment on column lifecycle.states.deletion_adjourned is
  'A soft deletion: restorable by a user until the grace period (settings.deletion_adjourned_period_days) ends, then hard-deleted by the sweeper; entering it from a permanent state records deletion_scheduled_at/_by.';
comment on column lifecycle.states.being_created is
  'The application is still creating the namespace; the sweeper deletes it after the creation timeout.';

-- The seed rows: the one place these codes are written.
insert into lifecycle.states (code, name, alias, description, permanent, read_only, pending_deletion, operation, operation_enters, inherited, deletion_adjourned, being_created) values
  (0, 'ancestor_inherited', 'active', 'No own state: the effective state comes from the nearest ancestor with one, else active.', true, false, false, null, false, true, false, false),
  (1, 'archived', null, 'Read-only, recoverable.', true, true, false, null, false, false, false, false),
  (2, 'deletion_scheduled', null, 'Soft-deleted, restorable until the grace period ends.', false, true, true, null, false, false, true, false),
  (3, 'creation_in_progress', null, 'Being created (only as an initial state).', false, false, false, null, false, false, false, true),
  (4, 'deletion_in_progress', null, 'Being hard-deleted.', false, true, true, 'hard_delete', false, false, false, false),
  (5, 'transfer_in_progress', null, 'Subtree being moved to a new parent.', false, true, false, 'transfer', true, false, false, false),
  (6, 'maintenance', null, 'Temporary read-only; reverts to the state it came from.', false, true, false, null, false, false, false, false);
