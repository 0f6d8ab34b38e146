-- The effective state of every namespace, one row each, for bulk reads (listings, exports, search
-- indexes). The syncer keeps it from the facts it records (effective_states_apply: only the
-- subtrees a change can have touched); a deleted namespace's row goes in the deleting transaction
-- (namespaces_effective_states). One writer at a time: its row of lifecycle.lock_rows (step 6 of
-- the global lock order). effective_states_verify compares it with effective_states_computed.
create table lifecycle.effective_states (
  namespace_id bigint not null,
  state text not null,
  effective_state text not null,
  inherited_from_namespace_id bigint,
  self_or_ancestor_archived boolean not null,
  self_or_ancestor_deletion_scheduled boolean not null,
  read_only boolean not null,
  full_path text not null,
  constraint effective_states_pkey primary key (namespace_id)
);

comment on table lifecycle.effective_states is
  'Effective state of every namespace for bulk reads, kept by the syncer change by change (lags by the syncer''s delay); namespace_effective_state is always fresh.';

-- Prefix searches by full path (full_path like 'acme/%': docs/sql-api.md).
create index effective_states_full_path_idx on lifecycle.effective_states (full_path text_pattern_ops);
