-- The syncer's calls (sql/functions/facts_record*.sql hold the rules). LSNs travel as text.

-- name: SyncerPublicationEnsure :one
SELECT lifecycle.syncer_publication_ensure(@publication_name)::text AS outcome;

-- name: SyncerProgressGet :one
SELECT p.lsn::text AS lsn FROM lifecycle.syncer_progress p WHERE p.slot_name = @slot_name;

-- name: FactMessageHorizon :one
-- Messages with the fact prefix from here on are no facts (lifecycle.fact_message_horizon).
SELECT h.lsn::text AS lsn FROM lifecycle.fact_message_horizon h;

-- name: SyncerProgressSave :exec
SELECT lifecycle.syncer_progress_save(@slot_name, CAST(sqlc.arg(lsn) AS text)::pg_lsn, @committed_at);

-- name: FactsRecord :many
-- Facts of the outbox the stream brought, with their commit position and time; those recorded
-- before (by the drain, or another syncer) are skipped.
SELECT coalesce(r.fact_id, 0)::bigint AS fact_id, coalesce(r.audit_event_id, 0)::bigint AS audit_event_id,
       coalesce(r.action, '')::text AS action, r.namespace_id, r.actor_id
FROM lifecycle.facts_record(@fact_ids::bigint[], CAST(sqlc.arg(source_lsns) AS text[])::pg_lsn[], @source_positions::int[],
                            @committed_ats::timestamptz[], @source_xids::bigint[]) r;

-- name: FactsRecordPending :many
-- The oldest facts still in the outbox, written at least min_age ago.
SELECT coalesce(r.fact_id, 0)::bigint AS fact_id, coalesce(r.audit_event_id, 0)::bigint AS audit_event_id,
       coalesce(r.action, '')::text AS action, r.namespace_id, r.actor_id
FROM lifecycle.facts_record_pending(@max_facts, make_interval(secs => @min_age_seconds::float8)) r;

-- name: FactMessageAdopt :batchone
-- A fact committed as a logical message before migration 035: its id in the outbox, 0 when the
-- message is no fact (it does not verify, or has another shape).
SELECT coalesce(lifecycle.fact_message_adopt(@fact::jsonb, @committed_at), 0)::bigint AS fact_id;

-- name: FactsUnrecorded :one
-- How many facts wait in the outbox, and the age in seconds of the oldest (0: none).
SELECT count(*)::bigint AS facts,
       coalesce(extract(epoch FROM clock_timestamp() - min(f.written_at)), 0)::float8 AS oldest_seconds
FROM lifecycle.facts f;

-- name: FactsOldest :one
-- The oldest fact waiting in the outbox (0: none): one that stays oldest is not being recorded.
SELECT coalesce(min(f.id), 0)::bigint AS fact_id FROM lifecycle.facts f;

-- name: FactsNewest :one
-- The newest fact waiting in the outbox (0: none): where a start-up drain's backlog ends.
SELECT coalesce(max(f.id), 0)::bigint AS fact_id FROM lifecycle.facts f;

-- name: SyncerHeartbeat :one
-- A non-transactional message: an idle slot still sees WAL move, so it can confirm and not pin WAL.
SELECT pg_catalog.pg_logical_emit_message(false, 'nslifecycle.heartbeat', pg_catalog.now()::text)::text AS lsn;

-- name: SyncerSlotGet :one
-- The slot of that name, wherever it is: slot names are cluster-wide.
SELECT s.database::text AS database, s.plugin::text AS plugin, s.slot_type::text AS slot_type, pg_catalog.current_database()::text AS current_database
FROM pg_catalog.pg_replication_slots s WHERE s.slot_name = @slot_name::text;

-- name: SyncerSlotLag :one
-- How far the slot's confirmed position is behind the server's WAL, in bytes.
SELECT s.active, s.confirmed_flush_lsn::text AS confirmed_flush_lsn,
       pg_catalog.pg_wal_lsn_diff(pg_catalog.pg_current_wal_lsn(), s.confirmed_flush_lsn)::bigint AS lag_bytes
FROM pg_catalog.pg_replication_slots s WHERE s.slot_name = @slot_name::text;

-- name: EffectiveStatesRefresh :exec
SELECT lifecycle.effective_states_refresh();

-- name: EffectiveStatesApply :one
SELECT coalesce(a.facts, 0)::int AS facts, coalesce(a.written, 0)::bigint AS written FROM lifecycle.effective_states_apply() a;

-- name: EffectiveStatesLag :one
-- Seconds since the oldest committed fact not yet applied was written or committed (0: none), and
-- how many wait: in the outbox, and recorded before an update saw them there.
SELECT coalesce(extract(epoch FROM clock_timestamp() - least(
         (SELECT min(f.written_at) FROM lifecycle.facts f WHERE NOT f.applied),
         (SELECT min(coalesce(a.committed_at, p.created_at)) FROM lifecycle.effective_states_pending p
            LEFT JOIN lifecycle.audit_events a ON a.id = p.audit_event_id))), 0)::float8 AS lag_seconds,
       ((SELECT count(*) FROM lifecycle.facts f WHERE NOT f.applied) +
        (SELECT count(*) FROM lifecycle.effective_states_pending))::bigint AS pending;

-- name: WebhookDeliveriesClaim :many
SELECT c.delivery_id, c.url, c.secret, c.body, c.idempotency_key, c.attempts
FROM lifecycle.webhook_deliveries_claim(@batch_size, @lease::interval) c;

-- name: WebhookDeliveryResult :one
SELECT lifecycle.webhook_delivery_result(@delivery_id, sqlc.narg('status_code'), sqlc.narg('error'), @max_attempts,
                                         @backoff::interval)::text AS status;

-- name: WebhookAllowedHosts :one
-- What the operator allows webhooks to reach beyond public addresses (checked at every dial).
SELECT s.webhook_allowed_hosts FROM lifecycle.settings s;

-- name: WebhookForbiddenRanges :many
-- The address ranges webhooks may not be sent to (checked at every dial): the rows the
-- registration check (lifecycle.webhook_address_refusal) reads.
SELECT r.network, r.reason FROM lifecycle.webhook_forbidden_ranges r ORDER BY r.network;

-- name: SyncerUnfinishedWork :many
-- What recorded facts asked of the syncer and may not be done: a namespace in the state of an
-- operation (lifecycle.states.operation: a transfer's move, a hard delete), in it for at least
-- min_age. A hard delete only when a user started it (delete now; the sweeper carries out its own,
-- whose history row has no actor). A syncer that dies between recording a fact and doing its
-- work, or a failover, leaves such work; running it twice is safe (the move answers noop, the
-- delete resumes).
SELECT n.id AS namespace_id, s.operation::text AS operation
FROM lifecycle.namespaces n
JOIN lifecycle.states s ON s.code = n.state
CROSS JOIN LATERAL (SELECT u.actor_id, u.created_at FROM lifecycle.namespace_state_updates u
                     WHERE u.namespace_id = n.id AND u.to_state = n.state ORDER BY u.id DESC LIMIT 1) last
WHERE n.state IN (SELECT t.code FROM lifecycle.states t WHERE t.operation IS NOT NULL)
  AND (s.operation <> 'hard_delete' OR last.actor_id IS NOT NULL)
  AND last.created_at <= clock_timestamp() - make_interval(secs => @min_age_seconds::float8)
ORDER BY n.id;

-- name: AuditActionsOfTransitions :many
-- The audit actions the rules name (one per allowed state change): the syncer exports each at 0
-- on lifecycle_syncer_audit_events_total from its start. The other facts' actions are the
-- triggers' own and appear at their first fact.
SELECT DISTINCT t.audit_action::text AS action
FROM lifecycle.state_transitions t
ORDER BY 1;
