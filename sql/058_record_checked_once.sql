-- The state record's tables set up for less in every change (issue 27, point 7: transitions
-- faster than an application-side state machine), each rule kept in one place. PostgreSQL 15
-- reads every CHECK constraint and every trigger WHEN clause of a table back from its stored text
-- and prepares it in each statement that writes the table, and every change of state writes the
-- history (lifecycle.namespace_state_updates) and its details row once (the gate's record,
-- namespaces_state_gate). Measured by dropping them on a copy of a 100k bench database (callgrind,
-- API transitions archive/unarchive, instructions per transition, main 2,809k): the history's two
-- checks cost 58k, the details' check and its two BEFORE triggers' WHEN clauses 80k. This step,
-- counted the same way (a kept 100k bench database at 58 and a copy moved down to 57; 50 warm-up
-- and then 150 or 550 of the bench's archive/unarchive statement over 200 targets, all changing a
-- row; (550-run total - 150-run total) / 400): 57 2,840.7k, 58 2,710.0k per transition (-130.8k,
-- -4.6%). The import pays less too (20k organizations staged, namespace_import_apply as
-- lifecycle_worker, totals): 10,071.8M -> 10,021.9M with lifecycle.import_skip_rechecks = off,
-- the row triggers firing (-2.5k a row); 6,199.9M -> 6,180.2M in replica mode (-1.0k a row).
--
-- 1. namespace_state_updates_source_check (api, sql, import, bridge; NOT VALID since 033) and
--    namespace_state_updates_metadata_check (a JSON object) said again what the writers write:
--      - the gate's record (namespaces_state_gate), for every change of state but the import's
--        and the backfill's: its source is namespace_change_state's argument (api by default;
--        bridge from legacy_bridge_apply and legacy_tree_delete; no other caller passes one, and
--        the function is executable by no client role), or sql for a raw UPDATE by the schema's
--        owner (no lifecycle.change); its metadata is the call's, which namespace_change_state
--        refuses (NS010, state_metadata_refusal) unless an object (a null is '{}'), or '{}';
--      - the import (namespace_import_batch) and the legacy backfill (legacy_bridge_backfill):
--        source import and an object, both constants;
--      - organization_move_in, which copies the staged history of another cluster's export: it
--        now refuses a staged row with another source or metadata that is not an object (NS010,
--        tests/organization_move_in/a_staged_history_row_with_an_unknown_source_or_non_object_metadata_is_refused_with_ns010).
--    Not judged: the schema's owner writing the history itself, or a raw UPDATE under a
--    lifecycle.change it wrote itself (056's header: the owner is trusted with these tables, whose
--    triggers it could disable). No client role may write either table.
-- 2. namespace_details_state_metadata_check (a JSON object): namespace_details_validate refuses
--    any other document on every write it checks (state_metadata_refusal: NS010, 'metadata must be
--    a JSON object'; the record's trusted UPDATE only when the document is an object:
--    tests/state_metadata/a_non_object_is_refused); the rows it does not walk are written by the
--    import (built with jsonb_build_object), the backfill (an object merged with objects) and
--    organization_move_in (state_metadata_refusal on each staged row, which refuses a non-object).
-- 3. namespace_details_0_settings_confirmed (WHEN lifecycle.importing = 'on') and
--    namespace_details_validate (WHEN it is not) are one trigger, namespace_details_validate,
--    without a WHEN clause: it asks the setting first, and when it is on refuses a client that set
--    it without the import's flag (NS010, worded once in importing_unconfirmed_refuse, which
--    settings_confirmed calls too, on the refusal alone) or lets the import's row through
--    unwalked. A row the import writes calls one trigger, as before.
--    (tests/state_metadata/a_details_write_with_lifecycle_importing_set_outside_the_import_is_refused_with_ns010.)
--
-- Locks: dropping a constraint or a trigger takes ACCESS EXCLUSIVE on its table, and
-- settings_confirmed's file replaces its trigger on lifecycle.namespaces (SHARE ROW EXCLUSIVE).
-- So the three tables are locked first, in one statement, in the order a change takes them
-- (namespaces, its details row, the history): a writer that has read namespaces and locked its
-- details row then finishes first (it holds what the first request waits for), where a weaker lock
-- on namespaces would let it lock the details row and wait on namespaces behind this step, which
-- waits for it (40P01). The new function goes before the lock; under the lock only definitions and
-- the drops, a few ms, no scan. The down part adds the checks back as they were (the metadata ones
-- validated, reading both tables under ACCESS EXCLUSIVE: move back at a quiet time; the source
-- check NOT VALID, as 033 left it). Under the bench's upgrade scenario at 100k (58 -> 57 -> 58,
-- three rounds, 4 writers, 4 readers, a reader holding a transaction 20 s; two runs): up 21-54
-- ms, no retry; down 27.1-27.2 s, waiting out the reader in five retries; calls at most 414 ms,
-- none refused (docs/operations.md, Upgrades).

{{ template "functions/importing_unconfirmed_refuse.sql" . }}
revoke all on function lifecycle.importing_unconfirmed_refuse(text) from public;
{{ template "functions/organization_move_in.sql" . }}

lock table lifecycle.namespaces, lifecycle.namespace_details, lifecycle.namespace_state_updates
  in access exclusive mode;

{{ template "triggers/settings_confirmed.sql" . }}
drop trigger namespace_details_0_settings_confirmed on lifecycle.namespace_details;
{{ template "triggers/namespace_details_validate.sql" . }}
alter table lifecycle.namespace_details drop constraint namespace_details_state_metadata_check;
alter table lifecycle.namespace_state_updates
  drop constraint namespace_state_updates_source_check,
  drop constraint namespace_state_updates_metadata_check;

---- create above / drop below ----

{{ template "snapshots/056/organization_move_in.sql" . }}

lock table lifecycle.namespaces, lifecycle.namespace_details, lifecycle.namespace_state_updates
  in access exclusive mode;

{{ template "snapshots/042/settings_confirmed.sql" . }}
{{ template "snapshots/019/namespace_details_validate.sql" . }}
drop function lifecycle.importing_unconfirmed_refuse(text);

-- The checks as 002 and 033 left them. Accepted (sql/README.md, Migrations without stalls): the
-- way back to 057, whose schema has the metadata checks validated; their scans run under the
-- ACCESS EXCLUSIVE taken above (the header says what it costs).
alter table lifecycle.namespace_details
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespace_details_state_metadata_check check (pg_catalog.jsonb_typeof(state_metadata) = 'object');
alter table lifecycle.namespace_state_updates
  -- squawk-ignore constraint-missing-not-valid
  add constraint namespace_state_updates_metadata_check check (pg_catalog.jsonb_typeof(metadata) = 'object'),
  add constraint namespace_state_updates_source_check check (source in ('api', 'sql', 'import', 'bridge')) not valid;
