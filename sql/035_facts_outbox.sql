-- Facts that survive a failover (issue 24). Until now a fact was a transactional logical message:
-- PostgreSQL 15 copies no logical slot to a standby, so at a failover every fact the syncer had not
-- read was gone, with no row to rebuild it from. A fact is now a row of lifecycle.facts, an outbox
-- written by fact_emit in the change's own transaction; it stays until facts_record writes its
-- audit row and deletes it, in one transaction, so a promoted standby holds every fact not yet
-- recorded and the syncer records each exactly once. The replication stream (a publication of the
-- outbox's inserts) only brings them fast, with their commit position and time; the syncer drains
-- what it did not bring (facts_record_pending). Only this schema's functions write the outbox, so
-- a fact needs no MAC, and a message anyone emits is no fact: forged_fact rows and dead letters
-- are no longer written. The MAC stays only to adopt the messages committed before this migration
-- that the syncer had not read yet (fact_message_adopt).
--
-- lifecycle.effective_states is updated from the outbox directly (its facts marked applied) and,
-- for facts recorded before an update saw them, from effective_states_pending, written with the
-- audit rows: a syncer that takes over applies what the last one left, instead of rebuilding the
-- table whole at every start.

create table lifecycle.facts (
  id bigint generated always as identity primary key,
  action text not null,
  namespace_id bigint,
  traversal_ids bigint[],
  full_path text,
  actor_id bigint,
  details jsonb not null default '{}',
  -- When the fact was written (not the transaction's start: a long transaction's facts would look
  -- unrecorded for longer than they are). The audit row's committed_at when the stream did not
  -- bring the fact's commit.
  written_at timestamptz not null default pg_catalog.clock_timestamp(),
  -- Applied to lifecycle.effective_states already (effective_states_apply reads the outbox, so a
  -- change shows there without waiting for the audit rows of a burst before it); recording such a
  -- fact leaves nothing for the next update.
  applied boolean not null default false
) with (
  -- A queue: every row is deleted within seconds. Vacuum it by the number of dead rows, not by a
  -- share of a table that is nearly empty.
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000
);
comment on table lifecycle.facts is
  'The outbox: one row per committed lifecycle fact not yet recorded as an audit row (fact_emit writes, facts_record deletes).';
-- A fact's audit row is keyed fact/<id>: after a move back to 034 and up again, the ids go on
-- above those the audit holds, or the first new fact would collide with an old key (found by the
-- bench's upgrade scenario). Reads the audit, locks nothing another session waits for.
select pg_catalog.setval(pg_catalog.pg_get_serial_sequence('lifecycle.facts', 'id'),
  coalesce((select max(pg_catalog.substr(a.idempotency_key, 6)::bigint) from lifecycle.audit_events a
             where a.idempotency_key like 'fact/%'), 0) + 1, false);

create table lifecycle.effective_states_pending (
  id bigint generated always as identity primary key,
  -- The recorded fact to apply; null: rebuild the table whole.
  audit_event_id bigint,
  created_at timestamptz not null default pg_catalog.clock_timestamp()
) with (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000);
comment on table lifecycle.effective_states_pending is
  'Facts recorded (facts_record) and not yet applied to lifecycle.effective_states (effective_states_apply).';
-- The syncer before this kept its facts to apply in memory: the first update rebuilds the table.
insert into lifecycle.effective_states_pending (audit_event_id) values (null);

-- A fact recorded from the outbox without its commit seen in the stream has no source position.
-- Accepted (sql/README.md, Migrations without stalls): a reader of the audit keys on
-- idempotency_key; source_lsn is null only for such facts (docs/sql-api.md, audit_events), and a
-- client that cannot take a null must learn it, not be given a position that is not one.
-- squawk-ignore ban-drop-not-null
alter table lifecycle.audit_events alter column source_lsn drop not null, alter column source_position drop not null;

{{ template "functions/fact_emit.sql" . }}
{{ template "functions/facts_record.sql" . }}
{{ template "functions/facts_record_pending.sql" . }}
{{ template "functions/fact_message_adopt.sql" . }}
{{ template "triggers/facts_truncated.sql" . }}
{{ template "functions/syncer_publication_ensure.sql" . }}
drop function lifecycle.effective_states_apply(jsonb[], bigint[]);
{{ template "functions/effective_states_apply.sql" . }}
drop function lifecycle.audit_record(text, pg_lsn, int, timestamptz, jsonb, boolean);
drop function lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint);

revoke all on function lifecycle.facts_record(bigint[], pg_lsn[], int[], timestamptz[], bigint[]),
  lifecycle.facts_record_pending(int, interval), lifecycle.fact_message_adopt(jsonb, timestamptz),
  lifecycle.facts_truncated(), lifecycle.effective_states_apply() from public;
grant execute on function lifecycle.facts_record(bigint[], pg_lsn[], int[], timestamptz[], bigint[]),
  lifecycle.facts_record_pending(int, interval), lifecycle.fact_message_adopt(jsonb, timestamptz),
  lifecycle.effective_states_apply() to lifecycle_worker;
comment on column lifecycle.fact_key.legacy_mac_until is
  'Messages committed before this time may carry the MAC of before migration 026 (SHA-256 of the key and of the key and the text); fact_message_adopt accepts it for them.';
-- The syncer reports how many facts wait and since when (/healthz, metrics); nobody writes them.
grant select on lifecycle.facts, lifecycle.effective_states_pending to lifecycle_worker;

-- Last, the one step that waits for the API's writers: the tables whose TRUNCATE is a fact get
-- their triggers (SHARE ROW EXCLUSIVE: writes wait, reads go on). Locked all at once first, in the
-- order the writers take them, so the wait is for one lock and no writer holding one table queues
-- behind another.
lock table lifecycle.namespaces, lifecycle.namespace_details, lifecycle.namespace_state_updates,
  lifecycle.namespace_members, lifecycle.namespace_redirects, lifecycle.transfer_requests, lifecycle.deleted_namespaces in share row exclusive mode;
create trigger facts_truncated after truncate on lifecycle.namespaces
  for each statement execute function lifecycle.facts_truncated();
create trigger facts_truncated after truncate on lifecycle.namespace_details
  for each statement execute function lifecycle.facts_truncated();
create trigger facts_truncated after truncate on lifecycle.namespace_members
  for each statement execute function lifecycle.facts_truncated();
create trigger facts_truncated after truncate on lifecycle.namespace_state_updates
  for each statement execute function lifecycle.facts_truncated();
create trigger facts_truncated after truncate on lifecycle.namespace_redirects
  for each statement execute function lifecycle.facts_truncated();
create trigger facts_truncated after truncate on lifecycle.transfer_requests
  for each statement execute function lifecycle.facts_truncated();
create trigger facts_truncated after truncate on lifecycle.deleted_namespaces
  for each statement execute function lifecycle.facts_truncated();

---- create above / drop below ----

-- First, before any table of the API is locked: the audit's scan holds the audit alone.
-- Rows recorded since have no source position: they keep the one the stream gave, or 0/0, -1.
update lifecycle.audit_events set source_lsn = coalesce(source_lsn, '0/0'), source_position = coalesce(source_position, -1)
 where source_lsn is null or source_position is null;
-- Accepted (sql/README.md, Migrations without stalls): down only, back to 034, which cannot take
-- a null there; SET NOT NULL reads the audit under ACCESS EXCLUSIVE (a check validated first
-- would hold the same lock in one transaction). Move back at a quiet time.
-- squawk-ignore adding-not-nullable-field
alter table lifecycle.audit_events alter column source_lsn set not null, alter column source_position set not null;
revoke select on lifecycle.facts, lifecycle.effective_states_pending from lifecycle_worker;
comment on column lifecycle.fact_key.legacy_mac_until is
  'Facts committed before this time may carry the MAC of before migration 026 (SHA-256 of the key and of the key and the text); audit_record accepts it for them.';
{{ template "snapshots/030/audit_record.sql" . }}
{{ template "snapshots/012/fact_dead_letter_record.sql" . }}
revoke all on function lifecycle.audit_record(text, pg_lsn, int, timestamptz, jsonb, boolean),
  lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint) from public;
grant execute on function lifecycle.audit_record(text, pg_lsn, int, timestamptz, jsonb, boolean),
  lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint) to lifecycle_worker;
drop function lifecycle.effective_states_apply();
{{ template "snapshots/031/effective_states_apply.sql" . }}
revoke all on function lifecycle.effective_states_apply(jsonb[], bigint[]) from public;
grant execute on function lifecycle.effective_states_apply(jsonb[], bigint[]) to lifecycle_worker;
-- 006's version says create, not create or replace: replaced in place, keeping its grants.
do $down$
begin
  execute pg_catalog.replace($snapshot${{ template "snapshots/006/syncer_publication_ensure.sql" . }}$snapshot$,
                             'create function', 'create or replace function');
end
$down$;
{{ template "snapshots/010/fact_emit.sql" . }}
drop function lifecycle.fact_message_adopt(jsonb, timestamptz);
drop function lifecycle.facts_record_pending(int, interval);
drop function lifecycle.facts_record(bigint[], pg_lsn[], int[], timestamptz[], bigint[]);
-- Last, as in the up: the triggers' tables locked all at once, in the writers' order (DROP
-- TRIGGER takes ACCESS EXCLUSIVE: reads wait too, for this step only).
lock table lifecycle.namespaces, lifecycle.namespace_details, lifecycle.namespace_state_updates,
  lifecycle.namespace_members, lifecycle.namespace_redirects, lifecycle.transfer_requests, lifecycle.deleted_namespaces in access exclusive mode;
drop trigger facts_truncated on lifecycle.namespaces;
drop trigger facts_truncated on lifecycle.namespace_details;
drop trigger facts_truncated on lifecycle.namespace_members;
drop trigger facts_truncated on lifecycle.namespace_state_updates;
drop trigger facts_truncated on lifecycle.namespace_redirects;
drop trigger facts_truncated on lifecycle.transfer_requests;
drop trigger facts_truncated on lifecycle.deleted_namespaces;
drop function lifecycle.facts_truncated();
drop table lifecycle.effective_states_pending;
drop table lifecycle.facts;
