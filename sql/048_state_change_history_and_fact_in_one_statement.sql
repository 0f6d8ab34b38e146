-- A state change's history row and its fact are written by one statement (issue 27, point 7:
-- transitions faster than an application-side state machine). The state record trigger wrote the
-- history row, then called lifecycle.fact_emit, a SECURITY DEFINER function with a SET clause, to
-- write the outbox row: two executor runs and a call with its settings saved and restored. Now a
-- data-modifying CTE writes both, the fact carrying the history row's id as before; the other
-- facts still go through fact_emit. What is written is unchanged.
--
-- Locks: the trigger's file also replaces its two triggers, unchanged, which takes SHARE ROW
-- EXCLUSIVE on lifecycle.namespaces, briefly, the one table lock of this step.

{{ template "snapshots/048/namespaces_state_record.sql" . }}

---- create above / drop below ----

{{ template "snapshots/032/namespaces_state_record.sql" . }}
