-- Every change of a rule table rewrites the digest the state gate reads
-- (lifecycle.transition_rules_write): the events, the matrix, the policies, the guards and the
-- states' names and flags, as constants.
create or replace function lifecycle.transition_rules_digest()
returns trigger
language plpgsql
set search_path to ''
as $$
begin
  perform lifecycle.transition_rules_write();
  return null;
end
$$;

create or replace trigger transition_rules_digest
  after insert or update or delete or truncate on lifecycle.states
  for each statement execute function lifecycle.transition_rules_digest();
create or replace trigger transition_rules_digest
  after insert or update or delete or truncate on lifecycle.state_transitions
  for each statement execute function lifecycle.transition_rules_digest();
create or replace trigger transition_rules_digest
  after insert or update or delete or truncate on lifecycle.transition_guards
  for each statement execute function lifecycle.transition_rules_digest();
create or replace trigger transition_rules_digest
  after insert or update or delete or truncate on lifecycle.transition_policies
  for each statement execute function lifecycle.transition_rules_digest();
create or replace trigger transition_rules_digest
  after insert or update or delete or truncate on lifecycle.events
  for each statement execute function lifecycle.transition_rules_digest();
create or replace trigger transition_rules_digest
  after insert or update or delete or truncate on lifecycle.event_sources
  for each statement execute function lifecycle.transition_rules_digest();
