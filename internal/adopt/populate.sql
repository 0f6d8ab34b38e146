-- legacy.populate(total): a generated population of about `total` namespaces in GitLab's tables
-- (gitlab/structure.sql, in schema legacy), deterministic (every choice is a hash of the row's number): a tenth
-- groups, nested up to four levels below top-level groups (top-level group 1 is `api`, a path the
-- lifecycle reserves); 3% user namespaces; the rest projects, each with its project namespace,
-- nine in ten in groups, the others in user namespaces. About 5% of groups and projects archived,
-- 2% scheduled for deletion (dates within the last six days, by users 1-5000), a few projects
-- pending_delete. Some legacy paths the lifecycle's rules refuse (capitals, spaces, dots, a final
-- .git, two siblings that differ only by case), one public project below a private group and one
-- group name with a control character (the import rejects both).
create function legacy.pick(i bigint, salt int, m bigint)
returns bigint
language sql
immutable
return (hashint8(i * 1000003 + salt)::bigint + 2147483648) % m;

create function legacy.populate(total bigint)
returns void
language plpgsql
as $$
declare
  g bigint := greatest(8, total / 10);            -- groups
  u bigint := total * 3 / 100;                    -- user namespaces
  p bigint := total - greatest(8, total / 10) - total * 3 / 100; -- projects
  t bigint := greatest(2, greatest(8, total / 10) / 20);        -- top-level groups
  first_id bigint[];
  cnt bigint[];
  lvl int;
begin
  -- Groups by level: ids 1..t at level 1, then 3t, 6t, and the rest at level 4.
  cnt := array[t, 3 * t, 6 * t, g - 10 * t];
  first_id := array[1, 1 + t, 1 + 4 * t, 1 + 10 * t];
  insert into legacy.namespaces (id, parent_id, type, path, name, visibility_level, created_at, organization_id)
  select i, null, 'Group',
         case when i = 1 then 'api' when i % 53 = 7 then 'Team ' || i else 'group-' || i end,
         case when i = 1 then 'API' else 'Group ' || i end,
         case when legacy.pick(i, 2, 10) < 5 then 20 when legacy.pick(i, 2, 10) < 7 then 10 else 0 end,
         timestamp '2016-01-01 00:00:00' + i * interval '1 minute', 1
    from generate_series(1, t) i;
  for lvl in 2..4 loop
    insert into legacy.namespaces (id, parent_id, type, path, name, visibility_level, created_at, organization_id)
    select i, par.id, 'Group',
           case when i % 53 = 7 then 'Team ' || i when i % 67 = 3 then 'ops.' || i || '.' else 'group-' || i end,
           'Group ' || i,
           least(par.visibility_level, case when legacy.pick(i, 2, 10) < 5 then 20 when legacy.pick(i, 2, 10) < 7 then 10 else 0 end),
           timestamp '2016-01-01 00:00:00' + i * interval '1 minute', 1
      from generate_series(first_id[lvl], first_id[lvl] + cnt[lvl] - 1) i
      join legacy.namespaces par on par.id = first_id[lvl - 1] + legacy.pick(i, 1, cnt[lvl - 1]);
  end loop;

  insert into legacy.namespaces (id, parent_id, type, path, name, visibility_level, created_at, organization_id)
  select g + i, null, 'User', case when i % 37 = 0 then 'John.Doe' || i else 'user-' || i end, 'User ' || i, 20,
         timestamp '2016-01-01 00:00:00' + (g + i) * interval '1 minute', 1
    from generate_series(1, u) i;

  -- Projects: legacy.projects ids 1..p (an id space of their own), project namespaces g+u+1 ...
  create temporary table adopt_projects on commit drop as
  select j, g + u + j as ns_id,
         case when j in (2, 3) then 1 + t                                  -- the case-only pair's parent
              when u = 0 or legacy.pick(j, 3, 10) > 0 then 1 + legacy.pick(j, 4, g)
              else g + 1 + legacy.pick(j, 4, u) end as parent_id,
         case when j = 2 then 'docs' when j = 3 then 'Docs'
              when j % 97 = 5 then 'Service.API.' || j when j % 101 = 9 then 'my project ' || j
              when j % 211 = 11 then 'tool-' || j || '.git' else 'project-' || j end as path,
         'Project ' || j as name,
         case when legacy.pick(j, 2, 10) < 5 then 20 when legacy.pick(j, 2, 10) < 7 then 10 else 0 end as visibility,
         timestamp '2017-01-01 00:00:00' + j * interval '30 seconds' as created_at
    from generate_series(1, p) j;
  insert into legacy.namespaces (id, parent_id, type, path, name, visibility_level, created_at, organization_id)
  select a.ns_id, a.parent_id, 'Project', a.path, a.name, least(par.visibility_level, a.visibility), a.created_at, 1
    from adopt_projects a join legacy.namespaces par on par.id = a.parent_id
   order by a.ns_id;
  insert into legacy.projects (id, namespace_id, project_namespace_id, path, name, visibility_level, archived,
                               marked_for_deletion_at, marked_for_deletion_by_user_id, pending_delete, created_at,
                               organization_id)
  select a.j, a.parent_id, a.ns_id, a.path, a.name, n.visibility_level,
         legacy.pick(a.j, 5, 100) < 5,
         case when legacy.pick(a.j, 6, 100) < 2 then current_date - legacy.pick(a.j, 7, 6)::int end,
         case when legacy.pick(a.j, 6, 100) < 2 then 1 + legacy.pick(a.j, 8, 5000) end,
         legacy.pick(a.j, 6, 100) < 2 and legacy.pick(a.j, 9, 40) = 0,
         a.created_at, 1
    from adopt_projects a join legacy.namespaces n on n.id = a.ns_id
   order by a.j;

  -- Group and user settings (GitLab keeps a row for every namespace but projects'), ~5% of groups
  -- archived; ~2% of groups scheduled for deletion.
  insert into legacy.namespace_settings (namespace_id, archived, created_at, updated_at)
  select n.id, n.type = 'Group' and legacy.pick(n.id, 5, 100) < 5, n.created_at, n.created_at
    from legacy.namespaces n where n.type in ('Group', 'User');
  insert into legacy.group_deletion_schedules (group_id, marked_for_deletion_on, user_id)
  select n.id, current_date - legacy.pick(n.id, 7, 6)::int, 1 + legacy.pick(n.id, 8, 5000)
    from legacy.namespaces n where n.type = 'Group' and n.id > 1 and legacy.pick(n.id, 6, 100) < 2;

  -- What the import refuses: a public project below a private group (GitLab forbids it now; old
  -- data has it), and a group name with a tab in it.
  with victim as (
    select pr.id, pr.project_namespace_id from legacy.projects pr join legacy.namespaces par on par.id = pr.namespace_id
     where par.type = 'Group' and par.visibility_level = 0 and pr.id > 3 order by pr.id limit 1)
  , a as (update legacy.projects x set visibility_level = 20 from victim v where x.id = v.id)
  update legacy.namespaces x set visibility_level = 20 from victim v where x.id = v.project_namespace_id;
  update legacy.namespaces set name = E'Old\tteam'
   where id = (select n.id from legacy.namespaces n where n.type = 'Group' and n.parent_id is not null
                  and exists (select from legacy.namespaces c where c.parent_id = n.id) order by n.id limit 1);
  analyze legacy.namespaces, legacy.projects, legacy.namespace_settings, legacy.group_deletion_schedules;
end
$$;
