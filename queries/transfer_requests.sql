-- Transfer requests and the move they lead to (lifecycle.namespace_transfer_*).

-- name: TransferRequestCreate :one
SELECT t.request_id, t.status, t.expires_at
FROM lifecycle.namespace_transfer_request(@namespace_id, @to_parent_id, sqlc.narg('actor_id')) t;

-- name: TransferRequestAccept :one
SELECT t.request_id, t.status, t.namespace_id
FROM lifecycle.namespace_transfer_accept(@request_id, sqlc.narg('actor_id')) t;

-- name: TransferRequestDecline :one
SELECT t.request_id, t.status
FROM lifecycle.namespace_transfer_decline(@request_id, sqlc.narg('actor_id')) t;

-- name: TransferRequestCancel :one
SELECT t.request_id, t.status
FROM lifecycle.namespace_transfer_cancel(@request_id, sqlc.narg('actor_id')) t;

-- name: TransferRequestsExpire :one
SELECT lifecycle.transfer_requests_expire(@as_of::timestamptz)::int AS expired;

-- name: TransferExecute :one
SELECT t.outcome, t.old_full_path, t.new_full_path
FROM lifecycle.namespace_transfer_execute(@namespace_id) t;

-- name: TransferRequestGet :one
SELECT * FROM lifecycle.transfer_requests WHERE id = @id;
