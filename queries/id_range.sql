-- The range a cluster hands out ids from (lifecycle.id_range_set; docs/scaling.md).

-- name: IdRangeGet :many
-- No row: no range set (every id).
SELECT * FROM lifecycle.id_range;

-- name: IdRangeSet :many
SELECT r.sequence_name, r.next_id FROM lifecycle.id_range_set(@first_id, @last_id) r;
