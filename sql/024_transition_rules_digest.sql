-- A state change reads the transition rules as constants (docs/design.md §3.6): a digest of
-- lifecycle.events, event_sources, states, state_transitions, transition_guards and
-- transition_policies, lifecycle.event_rule(event) and lifecycle.transition_rule(from_state,
-- to_state), PL/pgSQL functions of constants that a statement trigger on each of those tables
-- rewrites, so the tables stay the one place of the rules. namespace_change_state resolves the
-- event and transition_refusal checks the pair without reading a rule table: only the ancestors
-- and descendants the guards look up. Same answers, errors and order of checks.

create type lifecycle.transition_rule as (
  allowed boolean,
  min_access_level smallint,
  ancestor_forbidden smallint[],
  descendant_forbidden smallint[],
  from_name text,
  to_name text,
  to_permanent boolean,
  from_pending boolean,
  to_pending boolean,
  from_operation text
);
create type lifecycle.event_rule as (
  target_state smallint,
  target_key text,
  from_states smallint[]
);
comment on type lifecycle.event_rule is
  'What the rule tables say of an event: its target state, the metadata key that may send it back to where it was, and the states it applies from.';
comment on type lifecycle.transition_rule is
  'What the rule tables say of a change between two states: in the matrix or not, the access level it needs, the states its guards forbid an ancestor and a descendant, and the two states'' names and flags.';

{{ template "snapshots/024/transition_rules_write.sql" . }}
revoke all on function lifecycle.transition_rules_write() from public;
{{ template "triggers/transition_rules_digest.sql" . }}
select lifecycle.transition_rules_write();
revoke all on function lifecycle.transition_rule(smallint, smallint), lifecycle.event_rule(text) from public;
grant execute on function lifecycle.transition_rule(smallint, smallint), lifecycle.event_rule(text)
  to lifecycle_app, lifecycle_worker;

{{ template "snapshots/024/transition_refusal.sql" . }}
{{ template "snapshots/024/namespace_change_state.sql" . }}

---- create above / drop below ----

{{ template "snapshots/014/transition_refusal.sql" . }}
{{ template "snapshots/022/namespace_change_state.sql" . }}
drop trigger transition_rules_digest on lifecycle.events;
drop trigger transition_rules_digest on lifecycle.event_sources;
drop trigger transition_rules_digest on lifecycle.states;
drop trigger transition_rules_digest on lifecycle.state_transitions;
drop trigger transition_rules_digest on lifecycle.transition_guards;
drop trigger transition_rules_digest on lifecycle.transition_policies;
drop function lifecycle.transition_rules_digest();
drop function lifecycle.transition_rule(smallint, smallint);
drop function lifecycle.event_rule(text);
drop function lifecycle.transition_rules_write();
drop type lifecycle.transition_rule;
drop type lifecycle.event_rule;
