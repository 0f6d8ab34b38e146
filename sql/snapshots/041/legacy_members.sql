-- GitLab's memberships as the lifecycle keeps them (docs/adoption.md, Memberships): the one
-- definition the import (cmd/adopt -preset gitlab), the members bridge (legacy_members_source) and
-- the check (legacy_members_check) all read, so that they cannot disagree on what a membership is.
-- A row of members (GitLab's table; projects is GitLab's projects) is a membership when it names
-- a user and is neither an access request (requested_at) nor an invitation not yet accepted
-- (invite_token), as GitLab decides; source_type Namespace is on that namespace, Project on the
-- project's namespace (projects.project_namespace_id). Where GitLab has two rows for one namespace
-- and user, the higher level wins (since the earliest row's created_at, read in the session's
-- TimeZone; now when GitLab kept none). held says whether the lifecycle can hold it: its namespace
-- is the lifecycle's and its level one of namespace_members' (GitLab's minimal access, 5, is not).
--
-- Three ways to call it: all memberships (the import, the check); those of one user on one
-- namespace (of_user and on_namespace: the bridge bringing one pair in step, GitLab's index on
-- members.user_id finds the rows); or what one row of members, given as JSON (member_row), is on its
-- own (the bridge asking which pair an old or new row touched). members and projects are
-- regclass, so only tables the catalog has reach the statement (printed qualified: search_path is
-- empty here).
create function lifecycle.legacy_members(
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
  return query execute pg_catalog.format($q$
    select g.ns, g.user_id, g.access_level::smallint, g.created_at,
           n.id is not null and g.access_level = any (array[10, 20, 30, 40, 50])
      from (select s.ns, m.user_id, pg_catalog.max(m.access_level) as access_level,
                   coalesce(pg_catalog.min(m.created_at)::timestamptz, pg_catalog.now()) as created_at
              from %1$s m
              left join %2$s p on m.source_type = 'Project' and p.id = m.source_id
              cross join lateral (select case m.source_type when 'Namespace' then m.source_id
                                                            when 'Project' then p.project_namespace_id end) s (ns)
             where m.requested_at is null and m.invite_token is null and m.user_id is not null and s.ns is not null
               and ($1::bigint is null or m.user_id = $1) and ($2::bigint is null or s.ns = $2)
             group by s.ns, m.user_id) g
      left join lifecycle.namespaces n on n.id = g.ns$q$,
    case when member_row is null then members::text
         else pg_catalog.format('(select * from pg_catalog.jsonb_populate_record(null::%s, $3))', members) end,
    projects)
  using of_user, on_namespace, member_row;
end
$$;

comment on function lifecycle.legacy_members(regclass, regclass, bigint, bigint, jsonb) is
  'GitLab''s memberships (members rows that are memberships, on their namespace, the higher level winning), and whether the lifecycle can hold each.';
