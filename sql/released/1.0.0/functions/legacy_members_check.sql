-- Where GitLab's memberships and the lifecycle's disagree (docs/adoption.md, Memberships), in the
-- form of legacy_bridge_check, which returns these rows with its own: one row per namespace and
-- user on which they differ, naming the bridged members table, what GitLab's rows say ("member 7
-- at level 30", or "not member 7") and what lifecycle.namespace_members says, in the same words.
-- GitLab's side is the statement of lifecycle.legacy_members (legacy_members_statement: the
-- import's and the bridge's definition), of which only the memberships the lifecycle can hold
-- (held) count: a row it cannot hold is no membership, and the lifecycle's row of that pair, if
-- any, is reported as GitLab having none. The lifecycle's side is every membership: the members
-- bridge speaks for them all. Empty without a members bridge. Reads every row: for checks, not for
-- a request path.
create or replace function lifecycle.legacy_members_check()
returns table (namespace_id bigint, source regclass, legacy_says text, state text)
language plpgsql
stable
security definer
set search_path to ''
-- One pass over members, in the order of lifecycle.namespace_members' primary key (namespace,
-- user): GitLab's rows (GitLab has no index that gives them in that order) sorted once, aggregated
-- as they come (no hash table of every pair), merge-joined to lifecycle.namespaces and to
-- namespace_members; the Project rows merge-joined to projects the same way. Every side is read
-- whole and sorted, none through an index: namespace_members' rows lie in the order they were
-- written, and an index scan of it fetched one page a row (2M pages at 1M namespaces). At 1M
-- namespaces (2,044,865 memberships) 4.3 s of backend CPU against 6.7 s for a hash join with
-- lifecycle.legacy_members' rows (a set-returning function's), 6.2 s with index scans and 7.6 s
-- with the planner's hash joins (docs/adoption.md, 6. Check). work_mem for the
-- sorts (more did not pay: 4.5 s with 256MB); no parallel workers
-- (their CPU, off the backend's books, buys nothing on a loaded machine); no JIT (compiling costs
-- more than it saves on this one pass). No nested loop: on members not analyzed yet (right after
-- GitLab's rows were loaded, before autovacuum came by) the planner took its filter for a few rows
-- and read projects again for each of them (a check at 100,000 namespaces that had not ended after
-- minutes).
set enable_hashagg to off
set enable_hashjoin to off
set enable_nestloop to off
set enable_indexscan to off
set enable_bitmapscan to off
set max_parallel_workers_per_gather to 0
set work_mem to '64MB'
set jit to off
as $$
declare
  b lifecycle.legacy_members_bridges;
begin
  for b in select * from lifecycle.legacy_members_bridges x order by x.id loop
    -- (The statement's tables are catalog-checked regclass, printed quoted; $4 is the table to name.)
    return query execute
      'select coalesce(g.namespace_id, l.namespace_id), $4::regclass, '
      '       case when g.held then ''member '' || g.user_id || '' at level '' || g.access_level '
      '            else ''not member '' || l.user_id end, '
      '       case when l.user_id is null then ''not member '' || g.user_id '
      '            else ''member '' || l.user_id || '' at level '' || l.access_level end '
      '  from (' || lifecycle.legacy_members_statement(b.source, b.projects, false) || ') g (namespace_id, user_id, access_level, created_at, held) '
      '  full join lifecycle.namespace_members l on l.namespace_id = g.namespace_id and l.user_id = g.user_id '
      ' where case when g.held then g.access_level is distinct from l.access_level else l.user_id is not null end'
    using null::bigint, null::bigint, null::jsonb, b.source;
  end loop;
end
$$;

comment on function lifecycle.legacy_members_check() is
  'Every disagreement between GitLab''s memberships (the bridged members table) and lifecycle.namespace_members (empty when they agree).';
