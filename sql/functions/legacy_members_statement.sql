-- The statement of GitLab's memberships (docs/adoption.md, Memberships): the one definition that
-- lifecycle.legacy_members runs for the import and the members bridge, and that
-- lifecycle.legacy_members_check runs inside its own statement, so that the planner sees through
-- it (a set-returning function's rows come out of a tuplestore in no order: the check would then
-- hash and spill two million rows at 1M namespaces). A row of members (GitLab's table; projects is
-- GitLab's projects) is a membership when it names a user and is neither an access request
-- (requested_at) nor an invitation not yet accepted (invite_token), as GitLab decides; source_type
-- Namespace is on that namespace, Project on the project's namespace
-- (projects.project_namespace_id). Where GitLab has two rows for one namespace and user, the higher
-- level wins (since the earliest row's created_at, read in the session's TimeZone; now when GitLab
-- kept none). held says whether the lifecycle can hold it: its namespace is the lifecycle's and of
-- a type a members row can name (a project's, or one of the members bridge's namespace_types:
-- GitLab's groups), and its level one of namespace_members' (GitLab's minimal access, 5, is not).
-- Any other namespace is none GitLab's members can name: an organization (GitLab keeps those
-- apart, in organizations and organization_users, and a membership of one would give the
-- lifecycle's inherited authority over every group in it, which GitLab never gives) or a user's
-- personal namespace (a GroupMember's source is a Group; a personal namespace's owner is its
-- owner_id, no member). A row naming one is no membership, the write-back refuses to make one
-- (legacy_members_state) and the check reports one the lifecycle has. The types are those of
-- members' bridge (none without one: then only projects' namespaces are held).
--
-- Columns: namespace_id, user_id, access_level, created_at, held. Parameters: $1 a user (or null
-- for all), $2 a namespace (or null), $3 one row of members as JSON, read instead of the table when
-- one_row. members and projects are regclass, so only tables the catalog has reach the statement
-- (printed qualified: search_path is empty here).
create or replace function lifecycle.legacy_members_statement(members regclass, projects regclass, one_row boolean)
returns text
language plpgsql
stable
set search_path to ''
as $$
begin
  return pg_catalog.format($q$
    select g.ns, g.user_id, g.access_level::smallint, g.created_at,
           n.id is not null and g.access_level = any (array[10, 20, 30, 40, 50])
           and (not lifecycle.namespace_type_can_be_parent(n.type)
                or n.type = any (coalesce((select b.namespace_types from lifecycle.legacy_members_bridges b
                                            where b.source = %3$L::regclass), '{}')))
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
    case when one_row then pg_catalog.format('(select * from pg_catalog.jsonb_populate_record(null::%s, $3))', members)
         else members::text end,
    projects, members::text);
end
$$;

comment on function lifecycle.legacy_members_statement(regclass, regclass, boolean) is
  'The statement of GitLab''s memberships (lifecycle.legacy_members), for those that run it inside their own.';
