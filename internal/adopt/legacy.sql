-- A GitLab-shaped legacy schema (docs/adoption.md): GitLab keeps groups, user namespaces and
-- project namespaces in one table, namespaces, and projects in another with ids of their own;
-- projects.project_namespace_id is the project's row in namespaces, so every project has a
-- namespace id. Archived groups: namespace_settings.archived; scheduled group deletions: a row of
-- group_deletion_schedules; projects: archived, marked_for_deletion_at/_by_user_id, pending_delete.
create schema legacy;

create table legacy.namespaces (
  id bigint primary key,
  parent_id bigint references legacy.namespaces,
  type text not null check (type in ('Group', 'User', 'Project')),
  path text not null,
  name text not null,
  visibility_level int not null default 0, -- 0 private, 10 internal, 20 public
  created_at timestamptz not null default now()
);
create index on legacy.namespaces (parent_id);

create table legacy.namespace_settings (
  namespace_id bigint primary key references legacy.namespaces on delete cascade,
  archived boolean not null default false
);

create table legacy.group_deletion_schedules (
  group_id bigint primary key references legacy.namespaces on delete cascade,
  marked_for_deletion_on date not null,
  user_id bigint
);

create table legacy.projects (
  id bigint primary key,
  namespace_id bigint not null references legacy.namespaces,
  project_namespace_id bigint not null unique references legacy.namespaces on delete cascade,
  path text not null,
  name text not null,
  visibility_level int not null default 0,
  archived boolean not null default false,
  marked_for_deletion_at timestamptz,
  marked_for_deletion_by_user_id bigint,
  pending_delete boolean not null default false,
  created_at timestamptz not null default now()
);
create index on legacy.projects (namespace_id);
