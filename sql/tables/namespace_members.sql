-- Memberships, written by the application directly (lifecycle_app may insert, update the level and
-- delete): namespace_members_validate refuses a missing namespace (NS004) and a level outside
-- GitLab's five (NS010), organization_moving_guard a write to an organization moving out (NS011).
-- Each change is a fact (namespace_members_facts). The access checks read it up the path
-- (namespace_access_level_row); the members bridge keeps it in step with GitLab's members.
create table lifecycle.namespace_members (
  namespace_id bigint not null,
  user_id bigint not null,
  access_level smallint not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint namespace_members_pkey primary key (namespace_id, user_id),
  constraint namespace_members_access_level_check check ((access_level = any (array[10, 20, 30, 40, 50]))),
  constraint namespace_members_namespace_id_fkey foreign key (namespace_id) references lifecycle.namespaces(id) on delete cascade
);

comment on table lifecycle.namespace_members is
  'Memberships, inherited down the tree: the effective level is the highest on the path root … self.';

create index namespace_members_user_id_idx on lifecycle.namespace_members (user_id);
