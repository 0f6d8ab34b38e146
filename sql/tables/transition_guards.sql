-- The guards (ADR 003 "State Transition Overview", docs/design.md §3): for a transition, the own
-- states no ancestor (at any depth) and no descendant (at any depth) may have; NS002 and NS003.
-- Read through the rules' digest (transition_rule: the states a guard forbids an ancestor and a
-- descendant), not per change.
create table lifecycle.transition_guards (
  from_state smallint,
  to_state smallint not null,
  scope text not null,
  forbidden_state smallint not null,
  constraint transition_guards_key unique nulls not distinct (from_state, to_state, scope, forbidden_state),
  constraint transition_guards_scope_check check ((scope = any (array['ancestor'::text, 'descendant'::text]))),
  constraint transition_guards_forbidden_state_fkey foreign key (forbidden_state) references lifecycle.states(code),
  constraint transition_guards_transition_fkey foreign key (from_state, to_state) references lifecycle.state_transitions(from_state, to_state)
);

comment on table lifecycle.transition_guards is
  'States forbidden on any ancestor / any descendant for a transition (NS002 / NS003).';

insert into lifecycle.transition_guards (from_state, to_state, scope, forbidden_state) values
  -- Creation: nothing is created below a namespace that has (or has an ancestor with) any own state.
  (null, 0, 'ancestor', 1),
  (null, 0, 'ancestor', 2),
  (null, 0, 'ancestor', 3),
  (null, 0, 'ancestor', 4),
  (null, 0, 'ancestor', 5),
  (null, 0, 'ancestor', 6),
  (null, 3, 'ancestor', 1),
  (null, 3, 'ancestor', 2),
  (null, 3, 'ancestor', 3),
  (null, 3, 'ancestor', 4),
  (null, 3, 'ancestor', 5),
  (null, 3, 'ancestor', 6),
  -- active → archived.
  (0, 1, 'ancestor', 1),
  (0, 1, 'ancestor', 2),
  (0, 1, 'ancestor', 4),
  (0, 1, 'ancestor', 5),
  (0, 1, 'descendant', 3),
  (0, 1, 'descendant', 5),
  -- active → deletion_scheduled.
  (0, 2, 'ancestor', 2),
  (0, 2, 'ancestor', 4),
  (0, 2, 'ancestor', 5),
  (0, 2, 'descendant', 3),
  (0, 2, 'descendant', 5),
  -- active → transfer_in_progress: the whole path and subtree active or archived.
  (0, 5, 'ancestor', 2),
  (0, 5, 'ancestor', 3),
  (0, 5, 'ancestor', 4),
  (0, 5, 'ancestor', 5),
  (0, 5, 'ancestor', 6),
  (0, 5, 'descendant', 2),
  (0, 5, 'descendant', 3),
  (0, 5, 'descendant', 4),
  (0, 5, 'descendant', 5),
  (0, 5, 'descendant', 6),
  -- active → maintenance.
  (0, 6, 'ancestor', 2),
  (0, 6, 'ancestor', 4),
  (0, 6, 'ancestor', 5),
  (0, 6, 'descendant', 3),
  (0, 6, 'descendant', 5),
  -- archived → active: no ancestor deletion_scheduled or deletion_in_progress.
  (1, 0, 'ancestor', 2),
  (1, 0, 'ancestor', 4),
  -- archived → deletion_scheduled.
  (1, 2, 'ancestor', 2),
  (1, 2, 'ancestor', 4),
  (1, 2, 'ancestor', 5),
  (1, 2, 'descendant', 3),
  (1, 2, 'descendant', 5),
  -- archived → transfer_in_progress: the whole path and subtree active or archived.
  (1, 5, 'ancestor', 2),
  (1, 5, 'ancestor', 3),
  (1, 5, 'ancestor', 4),
  (1, 5, 'ancestor', 5),
  (1, 5, 'ancestor', 6),
  (1, 5, 'descendant', 2),
  (1, 5, 'descendant', 3),
  (1, 5, 'descendant', 4),
  (1, 5, 'descendant', 5),
  (1, 5, 'descendant', 6),
  -- deletion_scheduled → archived, deletion_in_progress → archived: no archived ancestor.
  (2, 1, 'ancestor', 1),
  (4, 1, 'ancestor', 1);
