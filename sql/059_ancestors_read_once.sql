-- The ancestors read once per change (issue 27, point 7: transitions faster than an
-- application-side state machine). The gate's record names the namespace's full path in the
-- change's fact, and read the ancestors' paths for it, one index probe per ancestor, after
-- transition_refusal had read the same rows for the ancestor guard: 163k instructions of a
-- change's 2.81 M (callgrind, the bench's targets at depth 9 on average). transition_refusal now
-- answers the ancestors' paths too when asked (with_path, an argument with a default: its other
-- callers are unchanged), from the rows its guard reads; the gate asks for them and writes the
-- full path from them and the row's own path. The fact's action (state_transitions.audit_action)
-- comes from the rules' digest (lifecycle.transition_rule, an attribute more) instead of a
-- lookup of state_transitions in the record's statement (26k). What is locked, checked, written
-- and said is unchanged.
--
-- Locks: the gate's trigger is replaced in place (SHARE ROW EXCLUSIVE on lifecycle.namespaces),
-- taken first; transition_refusal gets a new signature (an argument and a result column more),
-- dropped and created in the same transaction, so no change runs the new gate with the old
-- function or the other way round.

-- The digest is rewritten before the lock: it reads only the rules tables (057's header).
alter type lifecycle.transition_rule add attribute audit_action text;
{{ template "functions/transition_rules_write.sql" . }}
select lifecycle.transition_rules_write();

lock table lifecycle.namespaces in share row exclusive mode;

drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text);
{{ template "functions/transition_refusal.sql" . }}
revoke all on function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text, boolean) from public;
{{ template "triggers/namespaces_state_gate.sql" . }}

---- create above / drop below ----

alter type lifecycle.transition_rule drop attribute audit_action;
{{ template "snapshots/057/transition_rules_write.sql" . }}
select lifecycle.transition_rules_write();

lock table lifecycle.namespaces in share row exclusive mode;

drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text, boolean);
{{ template "snapshots/057/transition_refusal.sql" . }}
revoke all on function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text) from public;
{{ template "snapshots/057/namespaces_state_gate.sql" . }}
