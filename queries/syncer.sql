-- The syncer's calls (sql/006_facts_and_audit.sql holds the rules). LSNs travel as text.

-- name: SyncerPublicationEnsure :one
SELECT lifecycle.syncer_publication_ensure(@publication_name)::text AS outcome;

-- name: SyncerProgressGet :one
SELECT p.lsn::text AS lsn FROM lifecycle.syncer_progress p WHERE p.slot_name = @slot_name;

-- name: SyncerProgressSave :exec
SELECT lifecycle.syncer_progress_save(@slot_name, CAST(sqlc.arg(lsn) AS text)::pg_lsn, @committed_at);

-- name: AuditRecord :batchone
-- The audit row's id and action: id 0 when the fact was recorded before (a replay after a crash),
-- action forged_fact when it did not verify. Batched: the facts of a group commit are sent
-- pipelined, not one round trip each.
WITH r AS (
  SELECT lifecycle.audit_record(@idempotency_key, CAST(sqlc.arg(source_lsn) AS text)::pg_lsn, @source_position,
                                @committed_at, @fact::jsonb, @verify::boolean) AS id
)
SELECT coalesce(r.id, 0)::bigint AS audit_event_id,
       coalesce((SELECT a.action FROM lifecycle.audit_events a WHERE a.id = r.id), '')::text AS action
FROM r;

-- name: FactDeadLetterRecord :one
-- A message with the fact prefix that cannot be an audit row: the dead letter's id, 0 when one was
-- recorded at that source position before (a replay after a crash).
SELECT coalesce(lifecycle.fact_dead_letter_record(CAST(sqlc.arg(source_lsn) AS text)::pg_lsn, @source_position, @committed_at,
                                                  @reason, @detail, @payload, @payload_bytes), 0)::bigint AS dead_letter_id;

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
SELECT lifecycle.effective_states_apply(@facts::jsonb[], @source_xids::bigint[]);

-- name: WebhookDeliveriesClaim :many
SELECT c.delivery_id, c.url, c.secret, c.body, c.idempotency_key, c.attempts
FROM lifecycle.webhook_deliveries_claim(@batch_size, @lease::interval) c;

-- name: WebhookDeliveryResult :one
SELECT lifecycle.webhook_delivery_result(@delivery_id, sqlc.narg('status_code'), sqlc.narg('error'), @max_attempts,
                                         @backoff::interval)::text AS status;

-- name: WebhookAllowedHosts :one
-- What the operator allows webhooks to reach beyond public addresses (checked at every dial).
SELECT s.webhook_allowed_hosts FROM lifecycle.settings s;
