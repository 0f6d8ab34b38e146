-- The outbox. fact_emit (and the gate, for a change of state, with its history row) writes a fact
-- in the change's own transaction; it stays until facts_record writes its audit row and deletes it,
-- in one transaction, so a promoted standby holds every fact not yet recorded and each is recorded
-- exactly once. The replication stream (a publication of its inserts) only brings facts fast;
-- facts_record_pending drains the rest. Only the schema's functions write it.
create table lifecycle.facts (
  id bigint generated always as identity,
  action text not null,
  namespace_id bigint,
  traversal_ids bigint[],
  full_path text,
  actor_id bigint,
  details jsonb default '{}'::jsonb not null,
  -- The time the fact is written (not the transaction's start: a long transaction's facts would
  -- look unrecorded for longer than they are). The audit row's committed_at when the stream did not
  -- bring the fact's commit.
  written_at timestamp with time zone default clock_timestamp() not null,
  -- Applied to lifecycle.effective_states already (effective_states_apply reads the outbox, so a
  -- change shows there without waiting for the audit rows of a burst ahead of it); recording such a
  -- fact leaves nothing for the next update.
  applied boolean default false not null,
  constraint facts_pkey primary key (id)
  -- A queue: every row is deleted within seconds. Vacuumed by the number of dead rows, not by a
  -- share of a table that is nearly empty.
) with (autovacuum_vacuum_scale_factor=0, autovacuum_vacuum_threshold=5000);

comment on table lifecycle.facts is
  'The outbox: one row per committed lifecycle fact not yet recorded as an audit row (fact_emit writes, facts_record deletes).';
