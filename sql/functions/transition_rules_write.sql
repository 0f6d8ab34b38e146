-- Writes the digest of the transition rules that every state change reads: two functions whose
-- bodies are constants. lifecycle.event_rule(event): an event's target state, the
-- metadata key that may send it back to where it was, and the states it applies from
-- (lifecycle.events, event_sources). lifecycle.transition_rule(from_state, to_state): every pair
-- of states (and every creation, from_state null), each answer a constant
-- lifecycle.transition_rule: whether the pair is in the matrix (lifecycle.state_transitions), the
-- access level it needs (lifecycle.transition_policies), the states a guard forbids an ancestor
-- and a descendant to be in (lifecycle.transition_guards), and the two states' names and flags
-- (lifecycle.states: the operation that owns the state left, and the one that alone enters the
-- state entered), and the audit action of the change's fact (state_transitions.audit_action).
-- namespace_change_state and transition_refusal then read no rule table per change: reading them
-- would be three statements on seven tables (one with three subqueries) on every transition, a
-- quarter of the relation locks a transition would take.
--
-- Each body is one lookup: the answers as one constant array, the keys as another, the answer at
-- the key's position (array_position; no key, no answer: null). SQL, so a caller's expression
-- inlines it: two constants and a call, which PL/pgSQL prepares in every transaction for almost
-- nothing. (Not PL/pgSQL returning a CASE with a branch per pair: a CASE with 56 branches is
-- prepared again in every transaction, 120k instructions of a transition's 3.4 M for
-- transition_rule alone, measured with callgrind.) STABLE, not IMMUTABLE:
-- the answer changes when the tables do, so no plan may fold a call into a constant and keep it
-- past a change of the rules; a plan that inlined one depends on it and is made again when it is
-- replaced.
--
-- No SET clause (search_path) on the two functions written: a function that has one is never
-- inlined; the bodies hold only constants, a call and schema-qualified names, neither is SECURITY
-- DEFINER, and their callers pin their own search_path.
--
-- The tables stay the one place of the rules: the statement trigger transition_rules_digest on
-- each of them calls this after every change, so the digest is never edited by hand.
--
-- A pair's key is coalesce(from_state, -1) * 64 + to_state: state codes are 0 to 63 (the check
-- states_code_is_a_bit), so each pair and each creation has a key of its own.
--
-- Dynamic SQL only from the tables' own values, each quoted with %L; nothing from a caller.
create or replace function lifecycle.transition_rules_write()
returns void
language plpgsql
set search_path to ''
as $$
declare
  pair_keys int[];
  pair_rules lifecycle.transition_rule[];
  event_names text[];
  event_rules lifecycle.event_rule[];
begin
  select pg_catalog.array_agg(coalesce(f.code, -1) * 64 + t.code order by f.code nulls first, t.code),
         pg_catalog.array_agg(
             row(exists (select from lifecycle.state_transitions m
                          where m.from_state is not distinct from f.code and m.to_state = t.code),
                 (select p.min_access_level from lifecycle.transition_policies p where p.to_state = t.code),
                 array(select g.forbidden_state from lifecycle.transition_guards g
                        where g.from_state is not distinct from f.code and g.to_state = t.code
                          and g.scope = 'ancestor' order by g.forbidden_state),
                 array(select g.forbidden_state from lifecycle.transition_guards g
                        where g.from_state is not distinct from f.code and g.to_state = t.code
                          and g.scope = 'descendant' order by g.forbidden_state),
                 coalesce(f.name, '(new)'), t.name, t.permanent, coalesce(f.pending_deletion, false),
                 t.pending_deletion, f.operation,
                 case when t.operation_enters then t.operation end,
                 (select m.audit_action from lifecycle.state_transitions m
                   where m.from_state is not distinct from f.code and m.to_state = t.code))::lifecycle.transition_rule
             order by f.code nulls first, t.code)
    into pair_keys, pair_rules
    -- Every state as the source, and null for a creation.
    from (select s.code, s.name, s.pending_deletion, s.operation from lifecycle.states s
          union all
          select null, null, null, null) f
   cross join lifecycle.states t;
  select pg_catalog.array_agg(e.name order by e.name),
         pg_catalog.array_agg(
           row(e.target_state, e.target_key,
               array(select s.from_state from lifecycle.event_sources s
                      where s.event = e.name order by s.from_state))::lifecycle.event_rule
           order by e.name)
    into event_names, event_rules
    from lifecycle.events e;
  execute pg_catalog.format($f$
    create or replace function lifecycle.event_rule(event text)
    returns lifecycle.event_rule
    language sql
    stable
    parallel safe
    return (%L::lifecycle.event_rule[])[pg_catalog.array_position(%L::text[], event)]$f$,
    coalesce(event_rules, '{}'), coalesce(event_names, '{}'));
  comment on function lifecycle.event_rule(text) is
    'An event''s target state, the metadata key that may send it back to where it was, and the states it applies from, null for an unknown event: a digest of lifecycle.events and event_sources rewritten by their trigger transition_rules_digest, never by hand.';
  execute pg_catalog.format($f$
    create or replace function lifecycle.transition_rule(from_state smallint, to_state smallint)
    returns lifecycle.transition_rule
    language sql
    stable
    parallel safe
    return (%L::lifecycle.transition_rule[])[pg_catalog.array_position(%L::int[], coalesce(from_state, -1) * 64 + to_state)]$f$,
    coalesce(pair_rules, '{}'), coalesce(pair_keys, '{}'));
  comment on function lifecycle.transition_rule(smallint, smallint) is
    'What the rule tables say of a change from from_state (null: a creation) to to_state, null for an unknown state: a digest of lifecycle.states, state_transitions, transition_guards and transition_policies rewritten by their trigger transition_rules_digest, never by hand.';
end
$$;
