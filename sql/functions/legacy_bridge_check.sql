-- Where the legacy data and the lifecycle disagree (docs/design.md §10): one row per namespace and
-- bridged state or tree column on which they differ, naming a bridge's table, what the legacy data
-- says and what the lifecycle says. Empty when they all agree. For the states:
--   * a namespace a state bridge speaks for whose legacy data says "archived" or "not archived"
--     (likewise for every bridged state) where its state says otherwise; a deletion running with
--     no deletion date (GitLab's immediate deletion, pending_delete without a mark) says no
--     schedule, as GitLab writes it;
--   * a namespace a tree-bridged table holds, in a state no bridge can say of it (a user namespace
--     archived or scheduled: GitLab has no such column), as legacy_bridge_sync refuses it live:
--     the table holding it says "not archived".
-- For the tree, each tree bridge's rows of the types it maps against lifecycle.namespaces:
--   * a namespace of those types without its row: "no row", and its state;
--   * a row without its namespace: "a row", and "hard_deleted" (the lifecycle deleted it), "staged"
--     (not imported yet; ", rejected NSxxx" with the import's verdict) or "no namespace" (never
--     staged, or deleted behind the bridges' back);
--   * both, disagreeing on the parent, the path (legacy_path_matches: the import's normalised
--     forms agree), the name, the visibility or the type: "<column> <legacy value>" against
--     "<column> <lifecycle value>".
-- Then, in the same form, every membership GitLab's members table and lifecycle.namespace_members
-- disagree on (as legacy_members_check: "member 7 at level 30" against "not member 7").
-- One statement (legacy_bridge_check_statement builds it from the bridges' catalog-checked
-- identifiers, quoted), a union of parts that read independently: lifecycle.namespaces read once,
-- joined by id to one aggregate of each state bridge and to each tree-bridged table (index-backed:
-- every side is keyed by the namespace id); each tree-bridged table read again for the rows the
-- lifecycle lacks (an anti-join on its primary key); the memberships (legacy_members_statement,
-- joined as legacy_members_check joins it). A broken bridge stops it with NS010 naming it and its
-- repair, as legacy_bridge_rows does: a check that left it out would report agreement it cannot
-- know. Reads every row: for checks, not for a request path.
create or replace function lifecycle.legacy_bridge_check()
returns table (namespace_id bigint, source regclass, legacy_says text, state text)
language plpgsql
stable
security definer
set search_path to ''
-- No policy the application's role puts on its table runs with the rights this runs with: a read
-- such a policy would filter is refused (42501) instead (docs/reliability.md).
set row_security to off
-- Every side of the joins can be read in namespace id order (lifecycle.namespaces by its primary
-- key, a bridged table by the index of its id column, which GitLab has on each: the primary keys of
-- namespaces, namespace_settings and group_deletion_schedules, projects' unique index on
-- project_namespace_id): merge joins, no hash table of a million rows. At 100,000 GitLab namespaces
-- (internal/adopt's population) 0.7 s against 1.4 s with the hash joins the planner chose; the
-- memberships are sorted once and aggregated as they come (legacy_members_check says why). No
-- nested loop either: on tables not analyzed yet (a check right after an import, before
-- autovacuum came by) the planner took members' filter for a few rows and read projects again for
-- each of them (at 100,000 namespaces a check that had not ended after minutes). The parts of the
-- union run side by side (a Parallel Append: each part whole in one process; on two cores the
-- namespaces' and the memberships' at once), so no part's scan is split among workers (each would
-- sort the whole of the other side of its joins again): no partial scans. The planner takes every
-- namespace for a row of the result (the disagreements' filter is a guess): no cost per row sent
-- to the leader, which receives only the disagreements. No JIT (compiling costs more than it saves
-- on this one pass). work_mem for the memberships' sorts (GitLab's members by project, then by
-- namespace and user) and a table without an index on its id column: at 1M namespaces and 2M
-- memberships the sorts fit in 256MB (about 450MB for the memberships' part at once), 10% less CPU
-- for that part than sorting on disk with 64MB; more memberships spill at the same cap.
set enable_hashjoin to off
set enable_hashagg to off
set enable_nestloop to off
set max_parallel_workers_per_gather to 2
set parallel_tuple_cost to 0
set min_parallel_table_scan_size to '64GB'
set min_parallel_index_scan_size to '64GB'
set work_mem to '256MB'
set jit to off
as $$
begin
  return query execute lifecycle.legacy_bridge_check_statement() using null::bigint, null::bigint, null::jsonb;
end
$$;

comment on function lifecycle.legacy_bridge_check() is
  'Every disagreement between the bridged legacy data and the lifecycle, states, tree and memberships (empty when they agree).';
