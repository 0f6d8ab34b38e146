-- Emit one lifecycle fact: a transactional logical message (prefix 'nslifecycle.fact') written to
-- the WAL with the change, so it exists if and only if the change commits, in commit order. The
-- syncer turns each into exactly one audit row. The payload carries what the fan-out needs after
-- the rows may be gone: the namespace's id, path of ids and full path, the actor, the details; and
-- its MAC (lifecycle.fact_mac), which only this schema's functions can compute: a message someone
-- emits by hand is recorded as a forged fact, not as what it claims. Not granted to anyone: the
-- fact triggers (SECURITY DEFINER) call it. PL/pgSQL: every state change calls it, and a SQL
-- function with a SET clause would be planned on every call.
create or replace function lifecycle.fact_emit(
  action text,
  namespace_id bigint,
  traversal_ids bigint[],
  full_path text,
  actor_id bigint,
  details jsonb
)
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  fact jsonb := pg_catalog.jsonb_build_object(
    'action', action,
    'namespace_id', namespace_id,
    'traversal_ids', traversal_ids,
    'full_path', full_path,
    'actor_id', actor_id,
    'details', coalesce(details, '{}'),
    'occurred_at', pg_catalog.now());
  lsn pg_catalog.pg_lsn;
begin
  -- An assignment, not PERFORM: an expression without a table is evaluated directly, a PERFORM
  -- runs a whole query.
  lsn := pg_catalog.pg_logical_emit_message(true, 'nslifecycle.fact',
    (fact || pg_catalog.jsonb_build_object('mac', lifecycle.fact_mac(fact)))::text);
end
$$;
