-- Record one fact (a decoded 'nslifecycle.fact' message) as exactly one audit row, and fan it
-- out in the same transaction: a notification for each effective owner of the namespace (level 50
-- anywhere on its path, inherited) and for the actor; a pending delivery for each active webhook
-- whose namespace is on the path and whose actions include this one (or are empty); and a
-- pg_notify on channel 'nslifecycle_audit' (sent when the transaction commits, without a payload).
-- idempotency_key is the source position; a key seen before records nothing and returns null, so a replay after a
-- crash duplicates nothing. A fact whose MAC does not verify (verify true: a message emitted by
-- hand, not by this schema's triggers; lifecycle.fact_mac) is recorded as action 'forged_fact' with what it claimed,
-- and fans out to nobody. The syncer passes verify false only for what it saw itself in the
-- replication protocol (a TRUNCATE). A fact of another shape than fact_emit's (lifecycle.fact_refusal)
-- is refused with NS010 before anything is read out of it or written, forged or not: the syncer
-- records such a message as a dead letter (lifecycle.fact_dead_letters) instead.
create or replace function lifecycle.audit_record(
  idempotency_key text,
  source_lsn pg_lsn,
  source_position int,
  committed_at timestamptz,
  fact jsonb,
  verify boolean default true
)
returns bigint
language plpgsql
security definer
set search_path to ''
as $$
#variable_conflict use_variable
declare
  refusal text := lifecycle.fact_refusal(fact);
  event_id bigint;
  path_ids bigint[];
  action text;
  ns_id bigint;
  actor bigint;
begin
  if refusal is not null then
    raise exception using errcode = 'NS010', message = 'not a fact lifecycle.audit_record can record', detail = refusal,
      hint = 'The syncer records such a message as a dead letter (lifecycle.fact_dead_letters).';
  end if;
  -- Integers have scale 0 (fact_refusal), so their text casts to bigint.
  path_ids := array(select pg_catalog.jsonb_array_elements_text(coalesce(fact -> 'traversal_ids', '[]'))::bigint);
  action := fact ->> 'action';
  ns_id := (fact ->> 'namespace_id')::bigint;
  actor := (fact ->> 'actor_id')::bigint;
  -- A fact committed before migration 026 is signed with the construction before HMAC (the
  -- SHA-256 of the key and of the key and the text), and verified with it: an upgrade loses none
  -- of the facts the syncer had not read yet. Facts committed later are signed with HMAC alone.
  if verify and (fact ->> 'mac') is distinct from lifecycle.fact_mac(fact - 'mac')
     and not exists (select from lifecycle.fact_key k
                      where committed_at < k.legacy_mac_until
                        and (fact ->> 'mac') = pg_catalog.encode(pg_catalog.sha256(k.key || pg_catalog.sha256(
                              k.key || pg_catalog.convert_to((fact - 'mac')::text, 'UTF8'))), 'hex')) then
    insert into lifecycle.audit_events (idempotency_key, source_lsn, source_position, committed_at, action, details)
    values (idempotency_key, source_lsn, source_position, committed_at, 'forged_fact',
            pg_catalog.jsonb_build_object('claimed', fact))
    on conflict on constraint audit_events_idempotency_key_key do nothing
    returning id into event_id;
    return event_id;
  end if;
  fact := fact - 'mac';
  insert into lifecycle.audit_events (idempotency_key, source_lsn, source_position, committed_at, action, namespace_id,
                                      full_path, actor_id, details)
  values (idempotency_key, source_lsn, source_position, committed_at, action, ns_id, fact ->> 'full_path', actor,
          coalesce(fact -> 'details', '{}'))
  on conflict on constraint audit_events_idempotency_key_key do nothing
  returning id into event_id;
  if event_id is null then
    return null;
  end if;

  insert into lifecycle.notifications (user_id, audit_event_id, namespace_id, action)
  select u.user_id, event_id, ns_id, action
    from (select m.user_id from lifecycle.namespace_members m
           where m.namespace_id = any (path_ids) and m.access_level = 50
          union
          select actor where actor is not null) u
  on conflict do nothing;

  insert into lifecycle.webhook_deliveries (webhook_id, audit_event_id, idempotency_key, body)
  select w.id, event_id, idempotency_key || '/' || w.id,
         pg_catalog.jsonb_build_object('id', event_id, 'idempotency_key', idempotency_key, 'action', action,
                                       'namespace_id', ns_id, 'full_path', fact ->> 'full_path', 'actor_id', actor,
                                       'details', coalesce(fact -> 'details', '{}'), 'committed_at', committed_at)
    from lifecycle.webhooks w
   where w.active and w.namespace_id = any (path_ids)
     and (pg_catalog.cardinality(w.actions) = 0 or action = any (w.actions));

  -- Any login may LISTEN to any channel, granted a role of the schema or not, so the notification
  -- says only that something new was recorded: no id, action or namespace (an id alone would
  -- still count every tenant's activity). A listener reads lifecycle.audit_events, which only the
  -- product's roles may. Notifications with equal payloads in one transaction arrive as one.
  perform pg_catalog.pg_notify('nslifecycle_audit', '');
  return event_id;
end
$$;
