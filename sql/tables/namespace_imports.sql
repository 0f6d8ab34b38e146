-- Staging for the bulk import of an existing forge's namespaces (docs/design.md §10). The importer
-- (lifecycle_worker) fills it, one row per namespace with the application's id, then calls
-- namespace_import_apply() (one transaction) or namespace_import_run() (committed batches,
-- resumable). Rows are judged set-based, level by level (namespace_import_batch); valid ones are
-- written with their ids, states, legacy dates and actors, the others stay staged.
create table lifecycle.namespace_imports (
  id bigint not null,
  parent_id bigint,
  type text,
  path text,
  name text,
  visibility text default 'private'::text,
  state text default 'active'::text,
  state_changed_at timestamp with time zone,
  state_changed_by bigint,
  preserved_state text,
  created_at timestamp with time zone,
  -- Written by the import for a row it rejects; cleared when the next import judges it again.
  reject_code text,
  reject_reason text,
  legacy_parent_id bigint,
  constraint namespace_imports_pkey primary key (id)
);

comment on table lifecycle.namespace_imports is
  'Staging for an import: one row per namespace (the application''s id kept); rejected rows stay with reject_code and reject_reason.';
comment on column lifecycle.namespace_imports.legacy_parent_id is
  'The parent another legacy row of the namespace names (GitLab: namespaces.parent_id of a project''s namespace); the import rejects the row with NS013 when it differs from parent_id.';

create index namespace_imports_parent_id_idx on lifecycle.namespace_imports (parent_id);
