-- The tree bridges (docs/design.md §10.3): a legacy table whose rows name namespaces (GitLab's
-- namespaces; projects, by project_namespace_id), kept in step with the tree both ways: a legacy
-- INSERT, DELETE or change of path, parent, visibility or name goes through the gate in the same
-- transaction, and every change of the tree, whatever its write path, is written back to its rows
-- (legacy_tree_state). One bridge per table (legacy_tree_bridge_add); columns by attribute number.
create table lifecycle.legacy_tree_bridges (
  id bigint generated always as identity,
  source regclass not null,
  id_attnum smallint not null,
  parent_attnum smallint not null,
  path_attnum smallint not null,
  name_attnum smallint not null,
  visibility_attnum smallint,
  type_attnum smallint,
  -- With type_attnum: a JSON object, legacy type value -> lifecycle type; without: a JSON string,
  -- the one lifecycle type of every row.
  types jsonb not null,
  -- The types whose legacy writes the table carries to the lifecycle (projects for projects;
  -- namespaces for groups and users); rows of the other mapped types only follow the lifecycle.
  speaks_for text[] not null,
  -- The user a legacy write is judged on behalf of (as the writing role's API call).
  actor_id bigint,
  -- Values of the columns the bridge does not map, for a row the write-back inserts (GitLab's
  -- organization_id).
  row_defaults jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint legacy_tree_bridges_pkey primary key (id),
  constraint legacy_tree_bridges_source_key unique (source),
  constraint legacy_tree_bridges_types check ((jsonb_typeof(types) =
case
    when (type_attnum is null) then 'string'::text
    else 'object'::text
end))
);

comment on table lifecycle.legacy_tree_bridges is
  'Legacy tables whose rows name namespaces, kept in step with the tree both ways (lifecycle.legacy_tree_bridge_add).';
