-- The audit: one row per recorded fact, written only by the syncer (facts_record), in the
-- transaction that deletes the fact from the outbox (lifecycle.facts) and writes its notifications
-- and webhook deliveries. The application and the workers read it, and may not write it.
create table lifecycle.audit_events (
  id bigint generated always as identity,
  -- fact/<the fact's id> (facts_record): unique, so each fact is one audit row. Readers key on it.
  idempotency_key text not null,
  -- Where the replication stream showed the fact: its transaction's commit LSN and its position
  -- there. Null for a fact drained from the outbox (facts_record_pending), whose commit the stream
  -- did not show: no position is better than one that is not the fact's.
  source_lsn pg_lsn,
  source_position integer,
  -- The source transaction's commit time; for a drained fact, its facts.written_at.
  committed_at timestamp with time zone not null,
  action text not null,
  namespace_id bigint,
  full_path text,
  actor_id bigint,
  details jsonb default '{}'::jsonb not null,
  recorded_at timestamp with time zone default now() not null,
  constraint audit_events_pkey primary key (id),
  constraint audit_events_idempotency_key_key unique (idempotency_key)
);

create index audit_events_committed_at_idx on lifecycle.audit_events (committed_at);

create index audit_events_namespace_id_idx on lifecycle.audit_events (namespace_id, id);
