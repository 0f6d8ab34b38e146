-- One answer of lifecycle.event_rule(event), the digest of lifecycle.events and event_sources that
-- transition_rules_write writes.
create type lifecycle.event_rule as (
  target_state smallint,
  target_key text,
  from_states smallint[]
);
comment on type lifecycle.event_rule is
  'What the rule tables say of an event: its target state, the metadata key that may send it back to where it was, and the states it applies from.';
