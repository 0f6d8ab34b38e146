-- GitLab's memberships as the lifecycle keeps them (docs/adoption.md, Memberships): the one
-- definition (its statement is lifecycle.legacy_members_statement, which says what a membership
-- is) that the import (cmd/adopt -preset gitlab) and the members bridge (legacy_members_source)
-- read; the check (legacy_members_check) runs the same statement inside its own.
--
-- Three ways to call it: all memberships (the import); those of one user on one namespace (of_user
-- and on_namespace: the bridge bringing one pair in step, GitLab's index on members.user_id finds
-- the rows); or what one row of members, given as JSON (member_row), is on its own (the bridge
-- asking which pair an old or new row touched).
create or replace function lifecycle.legacy_members(
  members regclass,
  projects regclass,
  of_user bigint default null,
  on_namespace bigint default null,
  member_row jsonb default null
)
returns table (namespace_id bigint, user_id bigint, access_level smallint, created_at timestamptz, held boolean)
language plpgsql
stable
set search_path to ''
as $$
begin
  return query execute lifecycle.legacy_members_statement(members, projects, member_row is not null)
  using of_user, on_namespace, member_row;
end
$$;

comment on function lifecycle.legacy_members(regclass, regclass, bigint, bigint, jsonb) is
  'GitLab''s memberships (members rows that are memberships, on their namespace, the higher level winning), and whether the lifecycle can hold each.';
