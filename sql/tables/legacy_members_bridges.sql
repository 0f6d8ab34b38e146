-- The members bridge (docs/adoption.md, Memberships): GitLab's members table kept in step with
-- lifecycle.namespace_members both ways, in the same transaction (legacy_members_source on members,
-- legacy_members_state on namespace_members), with the writer's authority, audited and notified as
-- any membership change. Added by legacy_members_bridge_add; legacy_bridge_check reports every
-- membership the two disagree on.
create table lifecycle.legacy_members_bridges (
  id bigint generated always as identity,
  source regclass not null,
  -- GitLab's projects table: it gives a Project member's namespace.
  projects regclass not null,
  created_at timestamp with time zone default now() not null,
  namespace_types text[] not null,
  constraint legacy_members_bridges_pkey primary key (id),
  constraint legacy_members_bridges_source_key unique (source)
);

comment on table lifecycle.legacy_members_bridges is
  'GitLab''s members table, kept in step with lifecycle.namespace_members (lifecycle.legacy_members_bridge_add).';
comment on column lifecycle.legacy_members_bridges.namespace_types is
  'The types of the namespaces a members row with source_type Namespace names (GitLab: group); projects'' namespaces are named by Project rows.';

-- One members table holds every membership: one bridge at most, speaking for all the lifecycle's.
create unique index legacy_members_bridges_one on lifecycle.legacy_members_bridges ((true));
