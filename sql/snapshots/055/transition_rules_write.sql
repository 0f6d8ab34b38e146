-- Writes the digest of the transition rules that every state change reads: two functions whose
-- bodies are constants. lifecycle.event_rule(event): an event's target state, the
-- metadata key that may send it back to where it was, and the states it applies from
-- (lifecycle.events, event_sources). lifecycle.transition_rule(from_state, to_state): a CASE over
-- every pair of states (and every creation, from_state null), each answer a constant
-- lifecycle.transition_rule: whether the pair is in the matrix (lifecycle.state_transitions), the
-- access level it needs (lifecycle.transition_policies), the states a guard forbids an ancestor
-- and a descendant to be in (lifecycle.transition_guards), and the two states' names and flags
-- (lifecycle.states: the operation that owns the state left, and the one that alone enters the
-- state entered). namespace_change_state and transition_refusal then read no rule table per
-- change: those reads were three statements on seven tables (one with three subqueries) on every
-- transition, a quarter of the relation locks a transition took.
--
-- PL/pgSQL, not SQL: PostgreSQL does not inline a SQL function that returns a composite, and a SQL
-- function called from a PL/pgSQL expression is parsed and planned again in every transaction
-- (its cache lives with the expression's state, which is per transaction); a PL/pgSQL function
-- keeps its one expression's plan for the session. STABLE, not IMMUTABLE: the answer changes when
-- the tables do, so no plan may fold a call into a constant and keep it past a change of the rules.
--
-- No SET clause (search_path) on the two functions written: a call of a function that has one
-- saves and restores the setting, which cost more than these bodies, and every change calls them;
-- the bodies hold only constants, a CASE and schema-qualified types, neither is SECURITY DEFINER,
-- and their callers pin their own search_path.
--
-- The tables stay the one place of the rules: the statement trigger transition_rules_digest on
-- each of them calls this after every change, so the digest is never edited by hand. Replacing a
-- PL/pgSQL function makes every session compile it afresh at its next call, so no session keeps
-- an old rule.
--
-- A pair's branch is keyed coalesce(from_state, -1) * 64 + to_state: state codes are 0 to 63
-- (the check states_code_is_a_bit), so each pair and each creation has a key of its own.
--
-- Dynamic SQL only from the tables' own values, each quoted with %L; nothing from a caller.
create or replace function lifecycle.transition_rules_write()
returns void
language plpgsql
set search_path to ''
as $$
declare
  branches text;
  events text;
begin
  select pg_catalog.string_agg(
           pg_catalog.format('when %s then %L::lifecycle.transition_rule',
             coalesce(f.code, -1) * 64 + t.code,
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
                 case when t.operation_enters then t.operation end)::lifecycle.transition_rule),
           e'\n    ' order by f.code nulls first, t.code)
    into branches
    -- Every state as the source, and null for a creation.
    from (select s.code, s.name, s.pending_deletion, s.operation from lifecycle.states s
          union all
          select null, null, null, null) f
   cross join lifecycle.states t;
  select pg_catalog.string_agg(
           pg_catalog.format('when %L then %L::lifecycle.event_rule', e.name,
             row(e.target_state, e.target_key,
                 array(select s.from_state from lifecycle.event_sources s
                        where s.event = e.name order by s.from_state))::lifecycle.event_rule),
           e'\n    ' order by e.name)
    into events
    from lifecycle.events e;
  execute pg_catalog.format($f$
    create or replace function lifecycle.event_rule(event text)
    returns lifecycle.event_rule
    language plpgsql
    stable
    parallel safe
    as $b$ begin return %s; end $b$ $f$,
    case when events is null then 'null::lifecycle.event_rule'
         else pg_catalog.format(e'case event\n    %s\n    end', events) end);
  comment on function lifecycle.event_rule(text) is
    'An event''s target state, the metadata key that may send it back to where it was, and the states it applies from, null for an unknown event: a digest of lifecycle.events and event_sources rewritten by their trigger transition_rules_digest, never by hand.';
  execute pg_catalog.format($f$
    create or replace function lifecycle.transition_rule(from_state smallint, to_state smallint)
    returns lifecycle.transition_rule
    language plpgsql
    stable
    parallel safe
    as $b$ begin return %s; end $b$ $f$,
    case when branches is null then 'null::lifecycle.transition_rule'
         else pg_catalog.format(e'case coalesce(from_state, -1) * 64 + to_state\n    %s\n    end', branches) end);
  comment on function lifecycle.transition_rule(smallint, smallint) is
    'What the rule tables say of a change from from_state (null: a creation) to to_state, null for an unknown state: a digest of lifecycle.states, state_transitions, transition_guards and transition_policies rewritten by their trigger transition_rules_digest, never by hand.';
end
$$;
