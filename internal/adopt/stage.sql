-- The legacy namespaces (GitLab's tables) as the import's staging rows (docs/adoption.md), the
-- columns of lifecycle.namespace_imports in order: the demo inserts them in one statement (one
-- snapshot), cmd/adopt those the lifecycle does not have yet (GitLabStage). Schema legacy is
-- replaced by the schema GitLab's tables are in:
-- groups and user namespaces from legacy.namespaces, projects from legacy.projects under their
-- project_namespace_id (the namespace id GitLab gives every project; projects.id is another id
-- space). A state from the legacy columns, with the date and the actor GitLab keeps for a deletion;
-- archived kept beside a deletion as the state a restore returns to. GitLab keeps no date or actor
-- for archiving: those history rows get the namespace's created_at (the import's default).
-- pending_delete without a mark (GitLab's immediate deletion in flight) is staged without a date:
-- the import keeps none. A project's namespaces row names its parent too (legacy_parent_id): the
-- import rejects the project with NS013 when it is not projects.namespace_id.
select n.id, n.parent_id, case n.type when 'Group' then 'group' else 'user' end, n.path, n.name,
       case n.visibility_level when 20 then 'public' when 10 then 'internal' else 'private' end,
       case when d.group_id is not null then 'deletion_scheduled' when s.archived then 'archived' else 'active' end,
       d.marked_for_deletion_on, d.user_id,
       case when d.group_id is not null and s.archived then 'archived' end,
       n.created_at::timestamptz, null::bigint
  from legacy.namespaces n
  left join legacy.namespace_settings s on s.namespace_id = n.id
  left join legacy.group_deletion_schedules d on d.group_id = n.id
 where n.type in ('Group', 'User')
union all
select p.project_namespace_id, p.namespace_id, 'project', p.path, p.name,
       case p.visibility_level when 20 then 'public' when 10 then 'internal' else 'private' end,
       case when p.pending_delete then 'deletion_in_progress'
            when p.marked_for_deletion_at is not null then 'deletion_scheduled'
            when p.archived then 'archived' else 'active' end,
       p.marked_for_deletion_at::timestamptz, p.marked_for_deletion_by_user_id,
       case when (p.pending_delete or p.marked_for_deletion_at is not null) and p.archived then 'archived' end,
       p.created_at::timestamptz, pn.parent_id
  from legacy.projects p
  left join legacy.namespaces pn on pn.id = p.project_namespace_id
