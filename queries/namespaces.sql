-- Queries over lifecycle.namespaces. Every name is schema-qualified: the binaries and the tests run
-- with an empty search_path.

-- name: NamespaceInsert :one
-- A plain INSERT is the creation API (docs/design.md §4); the database fills traversal_ids.
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

-- name: NamespaceTransition :one
SELECT t.namespace_id, t.from_state, t.to_state, t.effective_state, t.changed
FROM lifecycle.namespace_transition(@namespace_id, @to_state, sqlc.narg('actor_id'), @metadata) t;

-- name: NamespaceEvent :one
SELECT t.namespace_id, t.from_state, t.to_state, t.effective_state, t.changed
FROM lifecycle.namespace_event(@namespace_id, @event, sqlc.narg('actor_id'), @metadata) t;

-- name: NamespaceEffectiveState :one
SELECT e.namespace_id, e.state, e.effective_state, e.inherited_from_namespace_id,
       e.self_or_ancestor_archived, e.self_or_ancestor_deletion_scheduled, e.read_only
FROM lifecycle.namespace_effective_state(@namespace_id) e;

-- name: NamespaceAvailableTransitions :many
SELECT a.to_state, a.allowed, a.error_code, a.reason, a.hint
FROM lifecycle.namespace_available_transitions(@namespace_id, sqlc.narg('actor_id')) a;

-- name: NamespaceRename :one
SELECT r.namespace_id, r.old_full_path, r.new_full_path, r.changed
FROM lifecycle.namespace_rename(@namespace_id, @new_path, sqlc.narg('actor_id')) r;

-- name: NamespaceResolve :many
-- No row when the path does not resolve (:many, so "not found" is an empty result, not an error).
SELECT r.namespace_id, r.canonical_path, r.redirected
FROM lifecycle.namespace_resolve(@full_path) r;

-- name: NamespaceSetVisibility :one
SELECT v.namespace_id, v.visibility, v.changed
FROM lifecycle.namespace_set_visibility(@namespace_id, @visibility, sqlc.narg('actor_id')) v;

-- name: NamespaceHardDelete :one
SELECT h.deleted, h.remaining, h.done
FROM lifecycle.namespace_hard_delete(@namespace_id, sqlc.narg('batch_size')) h;
