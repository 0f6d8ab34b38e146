-- Messages with the fact prefix that the syncer could not make an audit row, each at its source
-- position, kept as history: no function writes it, as facts are rows of lifecycle.facts, which
-- only the schema's functions write (docs/operations.md). Readable where the audit is.
create table lifecycle.fact_dead_letters (
  id bigint generated always as identity,
  -- The commit LSN of the source transaction and the message's place among its facts.
  source_lsn pg_lsn not null,
  source_position integer not null,
  committed_at timestamp with time zone not null,
  -- too_large: over the syncer's -fact-max-bytes; unreadable: not JSON that jsonb accepts (or nested
  -- deeper than the syncer reads); invalid_fact: JSON, but not a fact's shape; record_failed:
  -- recording it failed (detail: the error).
  reason text not null,
  detail text not null,
  -- The raw message, cut to its first 8192 bytes (any bytes: it may be no text at all);
  -- payload_bytes is its whole length.
  payload bytea not null,
  payload_bytes bigint not null,
  recorded_at timestamp with time zone default now() not null,
  constraint fact_dead_letters_pkey primary key (id),
  constraint fact_dead_letters_source_lsn_source_position_key unique (source_lsn, source_position),
  constraint fact_dead_letters_check check ((payload_bytes >= octet_length(payload))),
  constraint fact_dead_letters_payload_check check ((octet_length(payload) <= 8192)),
  constraint fact_dead_letters_reason_check check ((reason = any (array['too_large'::text, 'unreadable'::text, 'invalid_fact'::text, 'record_failed'::text])))
);
