-- The hot path of a state change, second pass (docs/benchmarks/history.md has the figures): fewer
-- statements per change and no planning on any call, without changing what it decides.
--   * The path is locked once. namespace_change_state locks the ancestors before the row, as the
--     lock order wants; the gate locked them again for the same UPDATE (it must, for raw UPDATEs).
--     The API now tells the gate, for that one row and UPDATE, that its path is locked already.
--   * transition_refusal reads the rule tables and runs both guard lookups in one statement; a
--     lookup a pair has no guard for is still skipped.
--   * plan_cache_mode force_generic_plan on the functions whose statements take arrays and ids: the
--     plan cache judged their generic plans dearer than custom ones and re-planned every call.
--   * The metadata schema walk keeps its own stack instead of calling itself per key; the state
--     record computes its metadata in the UPDATE that writes it; an event's "back to where it was"
--     is resolved in one statement; PERFORMs became assignments.

{{ template "functions/jsonb_schema_violation.sql" . }}
{{ template "snapshots/010/namespace_lock_path.sql" . }}
{{ template "snapshots/010/namespace_lock.sql" . }}
{{ template "snapshots/010/transition_refusal.sql" . }}
{{ template "snapshots/010/namespace_change_state.sql" . }}
{{ template "snapshots/010/fact_emit.sql" . }}
{{ template "snapshots/010/namespaces_state_record.sql" . }}
{{ template "snapshots/010/namespace_state_updates_facts.sql" . }}
{{ template "snapshots/010/namespaces_state_gate.sql" . }}

---- create above / drop below ----

{{ template "snapshots/009/namespaces_state_gate.sql" . }}
{{ template "snapshots/009/namespace_state_updates_facts.sql" . }}
{{ template "snapshots/009/namespaces_state_record.sql" . }}
{{ template "snapshots/009/fact_emit.sql" . }}
{{ template "snapshots/009/namespace_change_state.sql" . }}
{{ template "snapshots/009/transition_refusal.sql" . }}
{{ template "snapshots/002/namespace_lock.sql" . }}
{{ template "snapshots/009/namespace_lock_path.sql" . }}
{{ template "snapshots/002/jsonb_schema_violation.sql" . }}
