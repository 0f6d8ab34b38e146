-- No behaviour depends on a setting a client can make (issue: SET lifecycle.legacy_bridge_applying
-- = on skipped the legacy write-back of every change; a non-integer lifecycle.actor_id made a
-- plain INSERT fail with a raw 22P02; lifecycle.operation = legacy_bridge changed what
-- namespace_available_transitions promised; lifecycle.importing = on made an INSERT fail with a
-- raw 23502). The rule, which TestNoSessionSettingChangesWhatTheProductDoes checks for every
-- lifecycle.* setting the SQL reads:
--   * context travels in settings only to statements no client role may make (an UPDATE of state,
--     path, visibility or parent), written by the function that makes them right before, every
--     time (namespace_change_state, namespace_rename, namespace_set_visibility,
--     namespace_transfer_execute); a statement a client makes itself (an INSERT of a namespace, a
--     membership) reads none: no actor, no metadata;
--   * a flag that lets statements skip checks is a row of lifecycle.transaction_flags, keyed by the
--     transaction, which only the schema's functions write (transaction_flag_raise): the legacy
--     bridge's write-back hold; the import's lifecycle.importing stays a setting for the row
--     triggers' WHEN clauses, and settings_confirmed refuses (NS010) a row written while it is
--     on without the flag;
--   * transition_refusal takes the operation as an argument, which the gate passes from
--     namespace_change_state's context; the reports (namespace_available_transitions, a transfer
--     request) pass none;
--   * legacy_bridge_sync writes the time and actor of the last change from its details row;
--   * the writers of namespace_details other than the state record (the legacy bridge's, the hard
--     delete's) clear lifecycle.details_record before they write, so a client's value never spares
--     their write namespace_details_validate's walk.

create unlogged table lifecycle.transaction_flags (
  xact xid8 not null,
  flag text not null,
  primary key (xact, flag)
);

comment on table lifecycle.transaction_flags is
  'Flags a function raises for the statements it makes in its transaction (transaction_flag_raise), which no client can forge as it can a setting. Empty between transactions: lowered by the function that raised them, or rolled back with it.';

{{ template "functions/transaction_flag_raise.sql" . }}
{{ template "functions/transaction_flag_lower.sql" . }}
{{ template "snapshots/032/transaction_flag_raised.sql" . }}
{{ template "snapshots/032/settings_confirmed.sql" . }}
drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint);
{{ template "snapshots/032/transition_refusal.sql" . }}
{{ template "snapshots/032/namespaces_state_gate.sql" . }}
{{ template "snapshots/032/namespaces_state_record.sql" . }}
{{ template "triggers/namespaces_facts.sql" . }}
{{ template "triggers/namespace_members_facts.sql" . }}
{{ template "triggers/legacy_bridge_state.sql" . }}
{{ template "snapshots/032/legacy_bridge_source.sql" . }}
{{ template "snapshots/032/legacy_bridge_sync.sql" . }}
{{ template "snapshots/032/legacy_bridge_backfill.sql" . }}
{{ template "snapshots/032/legacy_bridge_apply.sql" . }}
{{ template "functions/namespace_hard_delete.sql" . }}
{{ template "functions/namespace_set_visibility.sql" . }}
{{ template "functions/namespace_transfer_execute.sql" . }}
{{ template "snapshots/032/namespace_import_batch.sql" . }}

revoke all on function lifecycle.transaction_flag_raise(text), lifecycle.transaction_flag_lower(text),
  lifecycle.transaction_flag_raised(text), lifecycle.settings_confirmed(),
  lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text) from public;

---- create above / drop below ----

-- The two tables whose triggers go below, locked first and in the order the API's writers take
-- them (they read namespaces, then lock details rows): dropped one after the other, the second
-- waited for writers that held namespaces and queued behind the first, and under a steady load
-- every attempt timed out (issue 25: 10 of 10 at 100k under 4 writers). Held for the milliseconds
-- this part takes.
lock table lifecycle.namespaces, lifecycle.namespace_details in access exclusive mode;
{{ template "snapshots/031/namespace_import_batch.sql" . }}
{{ template "snapshots/025/namespace_transfer_execute.sql" . }}
{{ template "snapshots/006/namespace_set_visibility.sql" . }}
-- The versions of 004, 006 and 014 say create, not create or replace, and triggers and grants
-- depend on them: replaced in place.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/004/namespace_hard_delete.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_apply.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_backfill.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_sync.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_source.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace($snapshot${{ template "snapshots/014/legacy_bridge_state.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
  execute pg_catalog.replace(pg_catalog.replace($snapshot${{ template "snapshots/006/namespace_members_facts.sql" . }}$snapshot$,
                             'create function', 'create or replace function'), 'create trigger', 'create or replace trigger');
end
$down$;
{{ template "snapshots/013/namespaces_facts.sql" . }}
{{ template "snapshots/022/namespaces_state_record.sql" . }}
{{ template "snapshots/017/namespaces_state_gate.sql" . }}
drop function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint, text);
{{ template "snapshots/024/transition_refusal.sql" . }}
revoke all on function lifecycle.transition_refusal(bigint, bigint[], smallint, smallint, bigint) from public;
drop trigger namespace_details_0_settings_confirmed on lifecycle.namespace_details;
drop trigger namespaces_0_settings_confirmed on lifecycle.namespaces;
drop function lifecycle.settings_confirmed();
drop function lifecycle.transaction_flag_raised(text);
drop function lifecycle.transaction_flag_lower(text);
drop function lifecycle.transaction_flag_raise(text);
drop table lifecycle.transaction_flags;
