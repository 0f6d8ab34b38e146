-- legacy_bridge_check joins every side by merging, never by a nested loop, whatever the planner
-- believes of tables nobody analyzed yet: GitLab's tables right after they were loaded, before
-- autovacuum came by, where the planner took members' filter (no request, no invitation, a user)
-- for a few rows and read projects again for each members row (a check at 100,000 namespaces,
-- run by the adoption right after its import, had not ended after minutes). The one nested loop
-- left is the per-namespace list of what is compared (a lateral VALUES, no table). Planned as the
-- check plans it: its statement (legacy_bridge_check_statement), under the check's own settings.
begin;
select plan(3);
select lifecycle_test.create_gitlab_tables();
select lifecycle.legacy_members_bridge_add('legacy.members', 'legacy.projects', array['group']);
-- Rows the planner has never counted (behind the bridges' back: only the plan matters here).
set local session_replication_role = replica;
insert into legacy.members (access_level, source_id, source_type, user_id, notification_level, member_namespace_id)
select 30, case when g % 2 = 0 then 900001 else 9100 end, case when g % 2 = 0 then 'Namespace' else 'Project' end,
       g, 3, case when g % 2 = 0 then 900001 else 900010 end
  from generate_series(1, 2000) g;
set local session_replication_role = origin;
select is((select count(*)::int from pg_catalog.pg_stats where schemaname = 'legacy' and tablename = 'members'), 0,
          'GitLab''s members were never analyzed');

-- The check's settings (its SET clauses, search_path aside: the test's own names must resolve),
-- for this transaction; then its statement, planned with its parameters null.
select pg_catalog.set_config(pg_catalog.split_part(c, '=', 1), pg_catalog.substr(c, pg_catalog.strpos(c, '=') + 1), true)
  from pg_catalog.pg_proc p, pg_catalog.unnest(p.proconfig) c
 where p.oid = 'lifecycle.legacy_bridge_check()'::regprocedure and c not like 'search_path=%';
create function pg_temp.check_plan() returns text language plpgsql as $$
declare line text; plan text := '';
begin
  execute 'prepare check_statement (bigint, bigint, jsonb) as ' || lifecycle.legacy_bridge_check_statement();
  for line in execute 'explain (costs off) execute check_statement (null, null, null)' loop
    plan := plan || line || e'\n';
  end loop;
  deallocate check_statement;
  return plan;
end $$;
create temp table check_plan as select pg_temp.check_plan() as plan;

select is((select pg_catalog.count(*)::int from pg_temp.check_plan p, pg_catalog.regexp_matches(p.plan, 'Nested Loop', 'g') m), 1,
          'one nested loop: the lateral list of what is compared, per namespace');
select matches((select plan from pg_temp.check_plan), 'Merge Full Join',
               'GitLab''s memberships and the lifecycle''s merged');
select * from finish();
rollback;
