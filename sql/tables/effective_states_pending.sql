-- The facts the syncer recorded (facts_record writes a row with each audit row) that no update
-- of lifecycle.effective_states has applied from the outbox yet; effective_states_apply takes them
-- all. They outlive the syncer that recorded them: after a takeover or a failover the next syncer
-- applies what the last one left.
create table lifecycle.effective_states_pending (
  id bigint generated always as identity,
  -- The recorded fact to apply; null: rebuild the table whole.
  audit_event_id bigint,
  created_at timestamp with time zone default clock_timestamp() not null,
  constraint effective_states_pending_pkey primary key (id)
  -- A queue, vacuumed by the number of dead rows, not by a share of a table that is nearly empty.
) with (autovacuum_vacuum_scale_factor=0, autovacuum_vacuum_threshold=5000);

comment on table lifecycle.effective_states_pending is
  'Facts recorded (facts_record) and not yet applied to lifecycle.effective_states (effective_states_apply).';

-- A row without a fact: the first update rebuilds the table whole.
insert into lifecycle.effective_states_pending (audit_event_id) values (null);
