-- The checks report every divergence of the bridged legacy tables from the lifecycle (issue 26,
-- point 7), in one set-based, index-backed statement:
--   * legacy_bridge_check() compares the tree too (each tree-bridged table's rows against
--     lifecycle.namespaces: a namespace without its row, a row without its namespace, parent, path,
--     name, visibility, type), and reports a state no bridge can say of a namespace a tree-bridged
--     table holds (a user namespace archived or scheduled through the API), as legacy_bridge_sync
--     refuses it live. It reads each bridged table once, joined by namespace id, instead of one
--     union of (namespace, bridge) rows grouped again.
--   * An imported deletion_in_progress without a deletion date (GitLab's pending_delete without
--     a mark: an immediate deletion in flight) keeps no date: deletion_scheduled_at stays null
--     instead of the namespace's created_at, and the check does not ask the legacy mark of it; the
--     backfill likewise (it gave such a deletion the time of the backfill), and gives a deletion
--     running beside a mark the mark's date (it gave the time of the backfill too).
--   * A staged row names the parent a second legacy row gives the namespace (legacy_parent_id:
--     GitLab's namespaces.parent_id of a project's namespace, beside projects.namespace_id); the
--     import rejects it with NS013 when the two differ, instead of importing it under one.

alter table lifecycle.namespace_imports add column legacy_parent_id bigint;
comment on column lifecycle.namespace_imports.legacy_parent_id is
  'The parent another legacy row of the namespace names (GitLab: namespaces.parent_id of a project''s namespace); the import rejects the row with NS013 when it differs from parent_id.';

{{ template "snapshots/043/legacy_bridge_check.sql" . }}
{{ template "snapshots/043/namespace_import_batch.sql" . }}
{{ template "snapshots/043/legacy_bridge_backfill.sql" . }}

---- create above / drop below ----

{{ template "snapshots/036/legacy_bridge_backfill.sql" . }}
{{ template "snapshots/037/namespace_import_batch.sql" . }}
-- 041's version, plain SQL (a function's language can be replaced in place; its grants kept).
{{ template "snapshots/041/legacy_bridge_check.sql" . }}
alter table lifecycle.namespace_imports drop column legacy_parent_id;
