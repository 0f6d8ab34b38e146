---- tern: disable-tx ----
-- namespace_effective_state as plain, inlinable SQL (docs/design.md §2): it was a SECURITY DEFINER
-- SQL wrapper with a SET clause (never inlined, planned on every call) around a PL/pgSQL function
-- that probed the primary key once per level. Now a SQL-standard body, run as the caller, reading
-- the path's own states from a partial index of the namespaces that have one (the few percent of
-- them), index-only. Same signature, same answers.

-- Only namespaces with an own state, with it: the probes per level read it index-only. State
-- changes already leave the other indexes on state (namespaces_own_state_idx), so this adds no
-- heap-only update that was possible before.
--
-- Outside a transaction, statement by statement (issue 25), so the index is built CONCURRENTLY on
-- a table that may hold millions of rows: reads and writes go on. The migrator retries the file
-- from the top after a failure anywhere, so every statement may run again: the first drops the
-- index a failed build left INVALID (or a finished one, rebuilt).
drop index concurrently if exists lifecycle.namespaces_stateful_idx;
create index concurrently if not exists namespaces_stateful_idx on lifecycle.namespaces (id) include (state) where state <> 0;

-- tern splits this file at every semicolon outside quotes, and a SQL-standard body has semicolons
-- of its own: the function goes in through one dollar-quoted EXECUTE.
do $do$ begin execute $fn${{ template "snapshots/016/namespace_effective_state.sql" . }}$fn$; end $do$;

revoke all on function lifecycle.namespace_effective_state(bigint) from public;
grant execute on function lifecycle.namespace_effective_state(bigint) to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

---- tern: disable-tx ----
{{ template "snapshots/009/namespace_effective_state.sql" . }}
revoke all on function lifecycle.namespace_effective_state(bigint) from public;
grant execute on function lifecycle.namespace_effective_state(bigint) to lifecycle_app, lifecycle_worker;
drop index concurrently if exists lifecycle.namespaces_stateful_idx;
