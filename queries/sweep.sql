-- The sweeper's calls (sql/functions/sweep_*.sql hold the rules; the sweeper only loops).

-- name: SweepDatabaseNow :one
SELECT pg_catalog.now()::timestamptz AS now;

-- name: SweepClaim :one
SELECT lifecycle.sweep_claim(@namespace_id)::boolean AS claimed;

-- name: SweepRelease :one
SELECT lifecycle.sweep_release(@namespace_id)::boolean AS released;

-- name: SweepDeletionCandidates :many
SELECT c.namespace_id, c.full_path, c.deletion_scheduled_at, c.deletion_scheduled_by, c.attempt_count
FROM lifecycle.sweep_deletion_candidates(@as_of, @max_attempts, @page_size,
                                         sqlc.narg('after_scheduled_at'), sqlc.narg('after_id')) c;

-- name: SweepAdjournedDeletion :one
SELECT s.outcome, s.detail FROM lifecycle.sweep_adjourned_deletion(@namespace_id, @as_of) s;

-- name: SweepDeletionFailed :one
SELECT f.attempt_count, f.stuck FROM lifecycle.sweep_deletion_failed(@namespace_id, @error, @max_attempts) f;

-- name: SweepStuckOperations :many
SELECT o.namespace_id, o.kind, o.full_path, o.since, o.attempt_count, o.last_error
FROM lifecycle.sweep_stuck_operations(@as_of, @stuck_after::interval, @creation_timeout::interval, @max_attempts) o;

-- name: SweepAbandonedCreation :one
SELECT a.outcome, a.detail
FROM lifecycle.sweep_abandoned_creation(@namespace_id, @as_of, @creation_timeout::interval) a;

-- name: NamespaceSubtreeIDs :many
-- The namespaces a hard delete of this one removes (itself included), for dry runs.
SELECT n.id
FROM lifecycle.namespaces n, lifecycle.namespaces root
WHERE root.id = @namespace_id
  AND n.traversal_ids >= root.traversal_ids
  AND n.traversal_ids < root.traversal_ids[1:pg_catalog.cardinality(root.traversal_ids) - 1]
                        || (root.traversal_ids[pg_catalog.cardinality(root.traversal_ids)] + 1);
