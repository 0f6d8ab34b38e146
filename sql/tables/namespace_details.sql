-- One row per namespace, made with it (namespaces_state_record) and deleted with it: its
-- state_metadata, which the gate's state record rewrites on every change of state
-- (namespaces_state_gate). The row is also the namespace's lock (steps 1, 2 and 4 of the global
-- lock order, functions/namespace_lock_path.sql): lifecycle_app may lock namespace rows, not these.
create table lifecycle.namespace_details (
  namespace_id bigint not null,
  -- A JSON object, validated against lifecycle.json_schemas' state_metadata on every write path
  -- (namespace_details_validate, NS010); no check constraint says it again (sql/README.md,
  -- Performance idioms).
  state_metadata jsonb default '{}'::jsonb not null,
  constraint namespace_details_pkey primary key (namespace_id),
  constraint namespace_details_namespace_id_fkey foreign key (namespace_id) references lifecycle.namespaces(id) on delete cascade
);
