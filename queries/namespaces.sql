-- Queries over lifecycle.namespaces. Every name is schema-qualified: the binaries and the tests run
-- with an empty search_path.

-- name: NamespaceInsert :one
-- A plain INSERT is the creation API (DESIGN §4); the database fills traversal_ids.
INSERT INTO lifecycle.namespaces (parent_id, type, path, name)
VALUES (sqlc.narg('parent_id'), @type, @path, @name)
RETURNING *;

-- name: NamespaceGetByID :one
SELECT * FROM lifecycle.namespaces WHERE id = @id;

-- name: NamespaceListSubtree :many
-- The namespace and all its descendants in depth-first order, with their full paths. The range on
-- traversal_ids is served by its btree: descendants of X sort between X and X with its last id + 1.
SELECT n.id, n.parent_id, n.type, n.path, n.name, n.state, n.traversal_ids,
       lifecycle.namespace_full_path(n.id)::text AS full_path
FROM lifecycle.namespaces n, lifecycle.namespaces root
WHERE root.id = @root_id
  AND n.traversal_ids >= root.traversal_ids
  AND n.traversal_ids < root.traversal_ids[1:pg_catalog.cardinality(root.traversal_ids) - 1]
                        || (root.traversal_ids[pg_catalog.cardinality(root.traversal_ids)] + 1)
ORDER BY n.traversal_ids;
