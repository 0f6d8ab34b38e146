-- Record facts of lifecycle.facts (the outbox, fact_emit) as audit rows, exactly once, and fan
-- them out in the same transaction: a notification for each effective owner of the namespace
-- (level 50 anywhere on its path, inherited) and for the actor; a pending delivery for each
-- active webhook whose namespace is on the path and whose actions include this one (or are empty);
-- a row of effective_states_pending for the next effective_states_apply, unless an update applied
-- the fact from the outbox already; and one pg_notify on
-- channel 'nslifecycle_audit' (sent at commit, without a payload). Exactly once because a fact is
-- deleted from the outbox by the transaction that writes its audit row: two callers given one
-- fact (the stream and the drain, two syncers at a takeover) serialise on its row, and the second
-- finds it gone. Ids no longer in the outbox are skipped.
--
-- The stream passes what logical decoding showed of each fact's transaction: its commit LSN, the
-- fact's position in it and its commit time, and the transactions' ids (32 bits). A commit reaches
-- a replication client once its record is flushed, a moment before the transaction is visible to
-- new snapshots on the primary (it leaves the running list after its WAL flush, and after a
-- synchronous standby's answer); read within that moment, its facts would not be found here yet.
-- So this first waits until every source transaction is visible, which it almost always is. A
-- fact given without them (facts_record_pending) is recorded with the time it was written.
-- Returns what was recorded, in fact order: the syncer acts on transfer_started and
-- deletion_started.
create or replace function lifecycle.facts_record(
  fact_ids bigint[],
  source_lsns pg_lsn[] default null,
  source_positions int[] default null,
  committed_ats timestamptz[] default null,
  source_xids bigint[] default null
)
returns table (fact_id bigint, audit_event_id bigint, action text, namespace_id bigint, actor_id bigint)
language plpgsql
security definer
set search_path to ''
set jit to off
as $$
#variable_conflict use_column
declare
  source_xid bigint;
  snap pg_snapshot;
  xmax bigint;
  waited_since timestamptz := pg_catalog.clock_timestamp();
  recorded int;
begin
  foreach source_xid in array coalesce(facts_record.source_xids, '{}') loop
    loop
      -- A fresh snapshot each time round (a volatile expression in a volatile function). The full
      -- transaction id is the one within 2^31 of the snapshot's xmax that ends in these 32 bits.
      snap := pg_catalog.pg_current_snapshot();
      xmax := pg_catalog.pg_snapshot_xmax(snap)::text::bigint;
      exit when pg_catalog.pg_visible_in_snapshot(
        (xmax + ((source_xid - (xmax & 4294967295) + 2147483648) % 4294967296 + 4294967296) % 4294967296 - 2147483648)::text::xid8,
        snap);
      if pg_catalog.clock_timestamp() - waited_since > interval '10 s' then
        -- Not a refusal: like a lock wait that timed out (55P03), running it again may succeed.
        raise exception using errcode = '55P03', message = 'source transaction not visible within 10 s',
          detail = pg_catalog.format('xid=%s snapshot=%s', source_xid, snap),
          hint = 'Pass the ids of transactions that have committed (from their logical decoding BEGIN message).';
      end if;
      perform pg_catalog.pg_sleep(0.001);
    end loop;
  end loop;

  return query
  with given as (
    select g.id, g.lsn, g.pos, g.committed_at
      from rows from (pg_catalog.unnest(facts_record.fact_ids), pg_catalog.unnest(facts_record.source_lsns),
                      pg_catalog.unnest(facts_record.source_positions), pg_catalog.unnest(facts_record.committed_ats))
           as g(id, lsn, pos, committed_at)
  ), taken as (
    delete from lifecycle.facts f where f.id = any (facts_record.fact_ids)
    returning f.id, f.action, f.namespace_id, f.traversal_ids, f.full_path, f.actor_id, f.details, f.written_at, f.applied
  ), numbered as (
    -- Each fact's audit row id, drawn in fact order before the rows are written: the fan-out
    -- below needs fact and audit row together, and joining the rows written back to the facts
    -- by their key would be planned on the estimates of CTEs (a nested loop, quadratic in a burst).
    select x.*, pg_catalog.nextval('lifecycle.audit_events_id_seq'::regclass) as audit_event_id
      from (select t.id, t.action, t.namespace_id, t.traversal_ids, t.full_path, t.actor_id, t.details, t.applied,
                   'fact/' || t.id as idempotency_key, coalesce(g.committed_at, t.written_at) as committed_at, g.lsn, g.pos
              from taken t
              left join given g on g.id = t.id
             order by t.id) x
  ), audited as (
    insert into lifecycle.audit_events (id, idempotency_key, source_lsn, source_position, committed_at, action, namespace_id,
                                        full_path, actor_id, details)
    overriding system value
    select n.audit_event_id, n.idempotency_key, n.lsn, n.pos, n.committed_at, n.action, n.namespace_id, n.full_path,
           n.actor_id, n.details
      from numbered n
  ), r as (
    select n.id as fact_id, n.audit_event_id, n.idempotency_key, n.committed_at, n.action, n.namespace_id,
           n.traversal_ids, n.full_path, n.actor_id, n.details, n.applied
      from numbered n
  ), notified as (
    insert into lifecycle.notifications (user_id, audit_event_id, namespace_id, action)
    select u.user_id, r.audit_event_id, r.namespace_id, r.action
      from r
     cross join lateral (select m.user_id from lifecycle.namespace_members m
                          where m.namespace_id = any (r.traversal_ids) and m.access_level = 50
                         union
                         select r.actor_id where r.actor_id is not null) u
    on conflict do nothing
  ), delivered as (
    insert into lifecycle.webhook_deliveries (webhook_id, audit_event_id, idempotency_key, body)
    select w.id, r.audit_event_id, r.idempotency_key || '/' || w.id,
           pg_catalog.jsonb_build_object('id', r.audit_event_id, 'idempotency_key', r.idempotency_key, 'action', r.action,
                                         'namespace_id', r.namespace_id, 'full_path', r.full_path, 'actor_id', r.actor_id,
                                         'details', r.details, 'committed_at', r.committed_at)
      from r
      join lifecycle.webhooks w
        on w.active and w.namespace_id = any (r.traversal_ids)
       and (pg_catalog.cardinality(w.actions) = 0 or r.action = any (w.actions))
  ), pending as (
    -- Every recorded fact no update has applied from the outbox yet: which ones matter to the
    -- table is decided by effective_states_apply.
    insert into lifecycle.effective_states_pending (audit_event_id)
    select r.audit_event_id from r where not r.applied
  )
  select r.fact_id, r.audit_event_id, r.action, r.namespace_id, r.actor_id from r order by r.fact_id;

  get diagnostics recorded = row_count;
  if recorded > 0 then
    -- Any login may LISTEN to any channel, granted a role of the schema or not, so the
    -- notification says only that something new was recorded: no id, action or namespace (an id
    -- alone would still count every tenant's activity). A listener reads lifecycle.audit_events,
    -- which only the product's roles may.
    perform pg_catalog.pg_notify('nslifecycle_audit', '');
  end if;
end
$$;
