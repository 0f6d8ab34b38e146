-- What a hard delete removed: a snapshot of each deleted root (full path, type, who scheduled the
-- deletion and when, how many descendants went with it), for the audit trail once its rows are
-- gone. Written by the hard delete's last batch (namespace_hard_delete) and by a tree bridge's
-- DELETE (legacy_tree_delete); each row is a fact (triggers/deleted_namespaces_facts.sql).
create table lifecycle.deleted_namespaces (
  namespace_id bigint not null,
  full_path text not null,
  type text not null,
  parent_id bigint,
  traversal_ids bigint[] not null,
  deletion_scheduled_by bigint,
  deletion_scheduled_at timestamp with time zone,
  descendant_count bigint not null,
  deleted_at timestamp with time zone default now() not null,
  constraint deleted_namespaces_pkey primary key (namespace_id)
);
