-- Where GitLab's memberships and the lifecycle's disagree (docs/adoption.md, Memberships), in the
-- form of legacy_bridge_check, which returns these rows with its own: one row per namespace and
-- user on which they differ, naming the bridged members table, what GitLab's rows say ("member 7
-- at level 30", or "not member 7") and what lifecycle.namespace_members says, in the same words.
-- GitLab's side is lifecycle.legacy_members (the import's and the bridge's definition), the
-- memberships the lifecycle can hold; the lifecycle's side is every membership: the members bridge
-- speaks for them all. Empty without a members bridge. Two scans and a hash join: for checks, not
-- for a request path.
create function lifecycle.legacy_members_check()
returns table (namespace_id bigint, source regclass, legacy_says text, state text)
language sql
stable
security definer
set search_path to ''
as $$
  select d.namespace_id, b.source, d.legacy_says, d.state
    from lifecycle.legacy_members_bridges b
    cross join lateral (
      select coalesce(g.namespace_id, l.namespace_id),
             case when g.user_id is null then pg_catalog.format('not member %s', l.user_id)
                  else pg_catalog.format('member %s at level %s', g.user_id, g.access_level) end,
             case when l.user_id is null then pg_catalog.format('not member %s', g.user_id)
                  else pg_catalog.format('member %s at level %s', l.user_id, l.access_level) end
        from (select m.namespace_id, m.user_id, m.access_level
                from lifecycle.legacy_members(b.source, b.projects) m where m.held) g
        full join lifecycle.namespace_members l on l.namespace_id = g.namespace_id and l.user_id = g.user_id
       where g.access_level is distinct from l.access_level) d (namespace_id, legacy_says, state)
$$;

comment on function lifecycle.legacy_members_check() is
  'Every disagreement between GitLab''s memberships (the bridged members table) and lifecycle.namespace_members (empty when they agree).';
