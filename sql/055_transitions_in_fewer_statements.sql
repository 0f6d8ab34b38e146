-- A transition with less work (issue 27, point 7: transitions faster than an application-side
-- state machine): fewer statements, fewer settings, no SET clauses on the hot path. What is
-- locked, in what order, what is checked, what is written and every message are unchanged.
-- (h27-speed3's 050-055, squashed into one step.)
--   * The gate read lifecycle.states for the two states' flags, a query per change; it now asks
--     the digest of lifecycle.states (state_flag_mask, and the named predicate state_permanent,
--     050), folded into its expressions as constants.
--   * No SET clause (search_path) on three functions every change calls that are not SECURITY
--     DEFINER and qualify every name: namespace_lock, and the rules' digest transition_rule and
--     event_rule (transition_rules_write writes them): each call saved and restored the setting.
--     namespace_lock takes step 2 of the lock order (the row, then its lock row) in one statement.
--   * transition_refusal read the nearest forbidden ancestor, a forbidden descendant and, through
--     actor_refusal and namespace_access_level, the actor's access level: up to four statements
--     per change. It now reads the three in one statement, the access level through
--     namespace_access_level_row (a SQL function its statement inlines, which
--     namespace_access_level also reads, so the rule stays one statement), and asks actor_refusal
--     only when that level does not meet the policy's (actor_refusal still decides and words
--     every refusal). It answers one row (all nulls when the change may be made) instead of a set
--     of at most one: the gate assigns it in an expression; namespace_transfer_request asks
--     whether its code is null.
--   * The state record trigger writes the details row, the history row and the fact in one
--     data-modifying statement, the two states' names and flags from the digest (state_names,
--     state_flag_mask, state_permanent, state_operation), the fact's action and full path read
--     inside the fact's row. It stays an AFTER trigger, so the record is in the statement that
--     changes the state whatever writes it (the API, a raw UPDATE, a bridge).
--   * namespace_change_state returns one lifecycle.state_change (it only ever answered one row);
--     namespace_event and namespace_transition return it with RETURN NEXT of the call, an
--     expression, instead of RETURN QUERY, a statement. Their callers see the same rows.
--   * A change's context travels in one setting, lifecycle.change (a JSON object of event,
--     metadata, source, operation, changed_at, path_locked, actor_id), written and cleared once
--     by namespace_change_state and read once by the gate and once by the state record, instead
--     of seven settings written, read back one by one and cleared (each a lookup among every
--     setting). lifecycle.actor_id stays for the rename, the visibility change and the move, whose
--     triggers (facts, visibility) do not fire on a change of state. What the context means, who
--     writes it and who may is unchanged (sql/README.md, Context between functions and triggers).
-- Measured in docs/benchmarks.md (Transitions: missed) and docs/benchmarks/history.md.
--
-- Locks: the gate's and the state record's files replace their triggers on lifecycle.namespaces,
-- unchanged, which takes SHARE ROW EXCLUSIVE on it, once for the whole step (h27-speed3's chain
-- took it four times); it is the step's one lock a client waits for, taken in one statement
-- before any other lock on lifecycle.namespaces, as the writers take it before anything else
-- here. Writers queue behind it until the step commits, so the rules' digests are rewritten
-- before it: transition_rules_write reads only the rules tables (ACCESS SHARE, which the writers
-- also only read) and took 167 ms of the step's 175 ms on an idle machine; what follows the lock
-- is a few ms of function and trigger definitions. Everything is replaced in one transaction: no
-- change is written by the old namespace_change_state and read by the new triggers, or the other
-- way round.

{{ template "snapshots/055/transition_rules_write.sql" . }}
select lifecycle.transition_rules_write();

lock table lifecycle.namespaces in share row exclusive mode;

{{ template "snapshots/055/namespace_lock.sql" . }}
{{ template "functions/namespace_access_level_row.sql" . }}
revoke all on function lifecycle.namespace_access_level_row(bigint[], bigint) from public;
{{ template "functions/namespace_access_level.sql" . }}
drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text);
{{ template "snapshots/055/transition_refusal.sql" . }}
revoke all on function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text) from public;
{{ template "functions/namespace_transfer_request.sql" . }}
drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz, text);
{{ template "snapshots/055/namespace_change_state.sql" . }}
revoke all on function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz, text) from public;
{{ template "functions/namespace_event.sql" . }}
{{ template "functions/namespace_transition.sql" . }}
{{ template "snapshots/055/namespaces_state_gate.sql" . }}
{{ template "snapshots/055/namespaces_state_record.sql" . }}

---- create above / drop below ----

{{ template "snapshots/042/transition_rules_write.sql" . }}
select lifecycle.transition_rules_write();

lock table lifecycle.namespaces in share row exclusive mode;

drop function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz, text);
{{ template "snapshots/033/namespace_change_state.sql" . }}
revoke all on function lifecycle.namespace_change_state(bigint, text, text, bigint, jsonb, text, timestamptz, text) from public;
-- 023's versions say create, not create or replace: replaced in place (their grants stay).
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/023/namespace_event.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/023/namespace_transition.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
{{ template "snapshots/045/namespaces_state_gate.sql" . }}
{{ template "snapshots/048/namespaces_state_record.sql" . }}
drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text);
{{ template "snapshots/045/transition_refusal.sql" . }}
revoke all on function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text) from public;
{{ template "snapshots/042/namespace_transfer_request.sql" . }}
{{ template "snapshots/009/namespace_access_level.sql" . }}
drop function lifecycle.namespace_access_level_row(bigint[], bigint);
{{ template "snapshots/045/namespace_lock.sql" . }}
