-- Less to prepare in every transaction (issue 27, point 7: transitions faster than an
-- application-side state machine). PostgreSQL 15 prepares every expression a PL/pgSQL function
-- evaluates afresh in each transaction; a transition is one transaction, so what each expression
-- costs to prepare is paid on every change.
--   * The rules' digests, transition_rule and event_rule, answer by one lookup in two constant
--     arrays (SQL, inlined by their callers) instead of a PL/pgSQL CASE with a branch for every
--     pair of states: 120k instructions per transition less (callgrind).
--   * The gate records the change it lets through (the details row, the history row and the fact,
--     one statement as before), before the row is written, in the same statement: the AFTER
--     trigger namespaces_3_state_record, a second trigger call per change with its queued event,
--     its WHEN clause read back and the change's context and the states' names read again, is
--     gone; namespaces_state_record writes an INSERT's details row only. The two states' names
--     and flags come from the rule's digest the gate already reads.
--   * transition_refusal reads the rule's fields where it uses them instead of copying eight of
--     them into variables first (eight expressions prepared in every transaction).
--   * namespace_lock reads the row and whether legacy bridges exist in one statement (one
--     statement fewer per change; 5k instructions).
--   * namespace_change_state answers a change into a state of its own (archived, a deletion…)
--     without reading the path: the namespace's own state is then its effective state.
-- What is locked, in what order, what is checked, what is written and every message are unchanged.
-- Measured in docs/benchmarks.md (Transitions) and docs/benchmarks/history.md.
--
-- Locks: the digests are replaced first, with no lock on lifecycle.namespaces (their callers plan
-- again at their next call); then the triggers, in one transaction, so no change is judged by the
-- new gate and recorded again by the old trigger. Dropping a trigger takes ACCESS EXCLUSIVE on
-- lifecycle.namespaces, so that is taken once, first among this step's locks on it, for a few ms of
-- definitions: taken later, over the SHARE ROW EXCLUSIVE that replacing a trigger takes, it
-- deadlocked with a transition that had read the table and was waiting to write it (the bench's
-- upgrade under load, 40P01). Readers wait those few ms too.

{{ template "snapshots/057/transition_rules_write.sql" . }}
select lifecycle.transition_rules_write();

lock table lifecycle.namespaces in access exclusive mode;

{{ template "functions/namespace_lock.sql" . }}
{{ template "functions/namespace_change_state.sql" . }}
{{ template "snapshots/057/namespaces_state_gate.sql" . }}
drop trigger namespaces_3_state_record on lifecycle.namespaces;
{{ template "snapshots/057/transition_refusal.sql" . }}
{{ template "triggers/namespaces_state_record.sql" . }}

---- create above / drop below ----

{{ template "snapshots/055/transition_rules_write.sql" . }}
select lifecycle.transition_rules_write();

lock table lifecycle.namespaces in share row exclusive mode;

{{ template "snapshots/055/namespace_lock.sql" . }}
{{ template "snapshots/055/namespace_change_state.sql" . }}
{{ template "snapshots/055/namespaces_state_gate.sql" . }}
{{ template "snapshots/055/namespaces_state_record.sql" . }}
{{ template "snapshots/055/transition_refusal.sql" . }}
