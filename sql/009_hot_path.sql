-- The hot path of a state change and of a namespace INSERT, made about three times cheaper without
-- changing what it decides (docs/benchmarks/history.md has the figures and the profiles). What cost went:
--   * SQL functions with SET clauses are never inlined, so PostgreSQL parsed and planned their
--     query on every call (state_name several times per change, the full path, the fact and its
--     MAC, the effective state every call returns): they are PL/pgSQL now, whose plans are cached
--     for the session. The API's namespace_effective_state keeps its SQL signature and calls
--     effective_state_of (PL/pgSQL cannot name a parameter and a result column alike);
--   * plan_cache_mode force_custom_plan planned every statement of transition_refusal,
--     namespace_lock_path and namespace_access_level on every call; it kept a plan made while the
--     table was tiny (a fresh database filled by one large INSERT) from staying a seq scan. These
--     functions, and the PL/pgSQL ones that read growing tables, set enable_seqscan off instead
--     (the cached plan is the index plan from the start; a bulk INSERT stays linear) and jit off
--     (with seq scans off, a scan of a one-row table looks costly enough to be JIT-compiled);
--   * statements per change: transition_refusal reads the rule tables in one statement and skips
--     the guard queries a pair has no guard for; the gate reads the two states' flags once; the
--     state record reads and writes the details row in one UPDATE (INSERT … ON CONFLICT fired the
--     validation trigger twice); the fact trigger reads what it needs in one statement; the
--     context settings are assignments, not PERFORMs (each of which ran a query); empty call
--     metadata skips the schema walk.

{{ template "functions/state_name.sql" . }}
{{ template "functions/state_code.sql" . }}
{{ template "functions/caller_may_act_as_system.sql" . }}
{{ template "functions/namespace_full_path.sql" . }}
{{ template "snapshots/009/namespace_lock_path.sql" . }}
{{ template "snapshots/009/namespace_access_level.sql" . }}
{{ template "functions/state_metadata_refusal.sql" . }}
{{ template "snapshots/009/path_refusal.sql" . }}
{{ template "snapshots/009/transition_refusal.sql" . }}
{{ template "snapshots/009/effective_state_of.sql" . }}
{{ template "snapshots/009/namespace_effective_state.sql" . }}
{{ template "snapshots/009/namespace_change_state.sql" . }}
{{ template "snapshots/009/fact_mac.sql" . }}
{{ template "snapshots/009/fact_emit.sql" . }}
{{ template "snapshots/009/namespaces_state_record.sql" . }}
{{ template "snapshots/009/namespace_state_updates_facts.sql" . }}
{{ template "snapshots/009/namespaces_state_gate.sql" . }}

revoke all on function lifecycle.effective_state_of(bigint) from public;

---- create above / drop below ----

{{ template "snapshots/008/namespaces_state_gate.sql" . }}
{{ template "snapshots/006/namespace_state_updates_facts.sql" . }}
{{ template "snapshots/005/namespaces_state_record.sql" . }}
{{ template "snapshots/006/fact_emit.sql" . }}
{{ template "snapshots/006/fact_mac.sql" . }}
{{ template "snapshots/002/namespace_change_state.sql" . }}
{{ template "snapshots/002/namespace_effective_state.sql" . }}
drop function lifecycle.effective_state_of(bigint);
{{ template "snapshots/003/transition_refusal.sql" . }}
{{ template "snapshots/003/path_refusal.sql" . }}
{{ template "snapshots/002/state_metadata_refusal.sql" . }}
{{ template "snapshots/002/namespace_access_level.sql" . }}
{{ template "snapshots/001/namespace_lock_path.sql" . }}
{{ template "snapshots/001/namespace_full_path.sql" . }}
{{ template "snapshots/002/caller_may_act_as_system.sql" . }}
{{ template "snapshots/002/state_code.sql" . }}
{{ template "snapshots/002/state_name.sql" . }}
