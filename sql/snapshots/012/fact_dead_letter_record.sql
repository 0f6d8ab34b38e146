-- Record a message with the fact prefix that cannot be an audit row (lifecycle.fact_dead_letters),
-- in the syncer's transaction with the batch's progress, so it is recorded exactly once and never
-- retried: at its source position (the commit LSN of its transaction and its place in it), which a
-- replay after a crash finds taken (null is returned, nothing is written). The payload is kept up to
-- its first 8192 bytes; payload_bytes is its whole size.
create function lifecycle.fact_dead_letter_record(
  source_lsn pg_lsn,
  source_position int,
  committed_at timestamptz,
  reason text,
  detail text,
  payload bytea,
  payload_bytes bigint
)
returns bigint
language plpgsql
-- Definer: only this function writes dead letters; the syncer's role may read them.
security definer
set search_path to ''
as $$
#variable_conflict use_variable
declare
  letter_id bigint;
begin
  insert into lifecycle.fact_dead_letters (source_lsn, source_position, committed_at, reason, detail, payload, payload_bytes)
  values (source_lsn, source_position, committed_at, reason, detail, pg_catalog.substr(payload, 1, 8192),
          greatest(payload_bytes, pg_catalog.octet_length(payload)))
  on conflict on constraint fact_dead_letters_source_lsn_source_position_key do nothing
  returning id into letter_id;
  return letter_id;
end
$$;
