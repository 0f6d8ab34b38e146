-- Memberships (inherited down the tree). The host application owns them; these are for the
-- binaries, the demo and tests.

-- name: MemberUpsert :one
INSERT INTO lifecycle.namespace_members (namespace_id, user_id, access_level)
VALUES (@namespace_id, @user_id, @access_level)
ON CONFLICT (namespace_id, user_id)
DO UPDATE SET access_level = excluded.access_level, updated_at = pg_catalog.now()
RETURNING *;

-- name: MemberDelete :exec
-- Through the function: no client role may DELETE from the table (it would let it lock the table).
SELECT lifecycle.namespace_member_remove(@namespace_id, @user_id);
