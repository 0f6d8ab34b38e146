-- Dead letters: a message with the fact prefix that cannot be an audit row. Anyone may call
-- pg_logical_emit_message, and a payload PostgreSQL's jsonb refuses (a \u0000 escape, a lone
-- surrogate, a number numeric cannot hold, invalid UTF-8, not JSON at all), one of another shape
-- (traversal_ids null, an action that is not a string), or one larger than the syncer's
-- -fact-max-bytes, made the syncer's batch fail, roll back, and fail again after every reconnect:
-- nothing later was audited and the slot pinned WAL. The syncer now records such a message here,
-- at its source position, in the transaction that records its batch's progress, and goes on.
-- lifecycle.audit_record refuses the shapes it cannot record (lifecycle.fact_refusal, NS010)
-- before reading anything out of them.

create table lifecycle.fact_dead_letters (
  id bigint generated always as identity primary key,
  -- The commit LSN of the source transaction and the message's place among its facts, as the
  -- idempotency key of lifecycle.audit_events: a position is an audit row or a dead letter.
  source_lsn pg_lsn not null,
  source_position int not null,
  committed_at timestamptz not null,
  -- too_large: over the syncer's -fact-max-bytes; unreadable: not JSON that jsonb accepts (or
  -- nested deeper than the syncer reads); invalid_fact: JSON, but not a fact's shape;
  -- record_failed: lifecycle.audit_record failed on it (detail: the error).
  reason text not null check (reason in ('too_large', 'unreadable', 'invalid_fact', 'record_failed')),
  detail text not null,
  -- The raw message, cut to its first 8192 bytes (any bytes: it may be no text at all).
  payload bytea not null check (pg_catalog.octet_length(payload) <= 8192),
  payload_bytes bigint not null check (payload_bytes >= pg_catalog.octet_length(payload)),
  recorded_at timestamptz not null default pg_catalog.now(),
  unique (source_lsn, source_position)
);

{{ template "functions/fact_refusal.sql" . }}
{{ template "snapshots/012/audit_record.sql" . }}
{{ template "snapshots/012/fact_dead_letter_record.sql" . }}

revoke all on function lifecycle.fact_refusal(jsonb) from public;
revoke all on function lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint) from public;
-- Readable where the audit is (006 grants lifecycle.audit_events to both roles).
grant select on lifecycle.fact_dead_letters to lifecycle_app, lifecycle_worker;
grant execute on function lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint) to lifecycle_worker;

---- create above / drop below ----

{{ template "snapshots/006/audit_record.sql" . }}
drop function lifecycle.fact_dead_letter_record(pg_lsn, int, timestamptz, text, text, bytea, bigint);
drop function lifecycle.fact_refusal(jsonb);
drop table lifecycle.fact_dead_letters;
