-- Moving an organization between clusters (docs/scaling.md, Cells; cmd/orgmove). Every name is
-- schema-qualified: the binaries and the tests run with an empty search_path. The export is read
-- as a stream by internal/orgmove (a :many here would hold the whole organization in memory).

-- name: OrganizationMoveOutStart :one
-- On the source: mark the organization as moving (every write refused, NS011), or resume a move
-- whose session is gone.
SELECT s.organization_id, s.resumed, s.namespaces
FROM lifecycle.organization_move_out_start(@path, @peer) s;

-- name: OrganizationMoveIn :many
-- On the target, in the transaction that copied the export into lifecycle.organization_imports.
SELECT m.kind, m.moved FROM lifecycle.organization_move_in(@organization_id, @peer) m;

-- name: OrganizationMoveOutFinish :many
-- On the source, once the target has committed: the organization's rows go.
SELECT f.kind, f.removed FROM lifecycle.organization_move_out_finish(@organization_id) f;

-- name: OrganizationMoveOutCancel :one
-- On the source, after a refusal or failure before the target committed: writes are served again.
SELECT lifecycle.organization_move_out_cancel(@path)::boolean AS canceled;

-- name: OrganizationMoveGet :many
-- The record of an organization's move on either side (no row: it never moved to or from here).
SELECT * FROM lifecycle.organization_moves WHERE organization_id = @organization_id;

-- name: OrganizationMoveGetByPath :many
-- A move out of this cluster not finished, by the organization's path.
SELECT * FROM lifecycle.organization_moves WHERE path = @path AND direction = 'out' AND finished_at IS NULL;

-- name: OrganizationMoveBacklog :one
-- What the source's syncer has yet to do for an organization: its facts still in the outbox, and
-- the deliveries still pending to its webhooks (which leave with it).
SELECT (SELECT count(*) FROM lifecycle.facts f WHERE f.traversal_ids[1] = @organization_id::bigint)::bigint AS facts,
       (SELECT count(*) FROM lifecycle.webhook_deliveries d
          JOIN lifecycle.webhooks w ON w.id = d.webhook_id
          JOIN lifecycle.namespaces n ON n.id = w.namespace_id
         WHERE d.status = 'pending' AND n.traversal_ids[1] = @organization_id::bigint)::bigint AS deliveries;
