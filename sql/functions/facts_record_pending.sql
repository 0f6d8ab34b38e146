-- Record the oldest facts still in the outbox (lifecycle.facts_record), at most max_facts, written
-- at least min_age ago: what the stream did not bring, because it was committed before the
-- syncer's slot existed (on a standby promoted at a failover, after a slot was dropped), by a syncer
-- that died before recording it, or while no syncer ran. The syncer calls it when it becomes
-- active and then every few seconds, with an age that leaves fresh facts to the stream, which
-- knows their commit position and time. Facts another caller is recording are skipped (SKIP
-- LOCKED), not waited for.
create or replace function lifecycle.facts_record_pending(max_facts int, min_age interval default '0 s')
returns table (fact_id bigint, audit_event_id bigint, action text, namespace_id bigint, actor_id bigint)
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
begin
  return query
  select r.fact_id, r.audit_event_id, r.action, r.namespace_id, r.actor_id
    from lifecycle.facts_record(array(
           select f.id from lifecycle.facts f
            where f.written_at <= pg_catalog.clock_timestamp() - min_age
            order by f.id
            limit max_facts
              for update skip locked)) r;
end
$$;
