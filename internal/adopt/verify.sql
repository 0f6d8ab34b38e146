-- Every namespace of the legacy data against the lifecycle's (make demo-adopt's last proof): the
-- state the legacy columns add up to (pending_delete, else a deletion mark, else archived), the
-- archived flag kept beside a deletion (preserved_state), and, for a deletion, its legacy date
-- and actor in deletion_scheduled_at/_by and in the history row that entered it. GitLab keeps
-- only a day for a deletion (group_deletion_schedules.marked_for_deletion_on,
-- projects.marked_for_deletion_at), so those compare by day. One row per disagreement, with what differs; a summary row per state first.
with legacy_says as (
  select n.id, coalesce(s.archived, false) as archived, d.group_id is not null as scheduled, false as in_progress,
         d.marked_for_deletion_on::timestamptz as scheduled_at, d.user_id as scheduled_by, true as by_day
    from legacy.namespaces n
    left join legacy.namespace_settings s on s.namespace_id = n.id
    left join legacy.group_deletion_schedules d on d.group_id = n.id
   where n.type in ('Group', 'User')
  union all
  select p.project_namespace_id, p.archived, p.marked_for_deletion_at is not null, coalesce(p.pending_delete, false),
         p.marked_for_deletion_at::timestamptz, p.marked_for_deletion_by_user_id, true
    from legacy.projects p
), expected as (
  select l.*, (case when l.in_progress then 4 when l.scheduled then 2 when l.archived then 1 else 0 end)::smallint as state
    from legacy_says l
)
select e.id, e.state, case
  when n.id is null then 'not in lifecycle.namespaces'
  when n.state <> e.state
    then format('state %s, the legacy data says %s', lifecycle.state_name(n.state), lifecycle.state_name(e.state))
  when e.state in (2, 4) and e.archived is distinct from (d.state_metadata ->> 'preserved_state' = 'archived')
    then format('legacy archived=%s beside the deletion, preserved_state %s', e.archived, d.state_metadata ->> 'preserved_state')
  when e.state in (2, 4) and not e.by_day and n.deletion_scheduled_at is distinct from e.scheduled_at
    then format('deletion_scheduled_at %s, the legacy data says %s', n.deletion_scheduled_at, e.scheduled_at)
  when e.state in (2, 4) and e.by_day and n.deletion_scheduled_at::date is distinct from e.scheduled_at::date
    then format('deletion_scheduled_at %s, the legacy data says the day %s', n.deletion_scheduled_at, e.scheduled_at::date)
  when e.state in (2, 4) and n.deletion_scheduled_by is distinct from e.scheduled_by
    then format('deletion_scheduled_by %s, the legacy data says %s', n.deletion_scheduled_by, e.scheduled_by)
  when e.state in (2, 4) and not exists (
         select from lifecycle.namespace_state_updates u
          where u.namespace_id = n.id and u.to_state in (2, 4) and u.from_state not in (2, 4)
            and u.created_at = n.deletion_scheduled_at and u.actor_id is not distinct from n.deletion_scheduled_by)
    then 'no history row enters the deletion at its legacy time with its legacy actor'
  when e.state = 1 and not exists (select from lifecycle.namespace_state_updates u where u.namespace_id = n.id and u.to_state = 1)
    then 'archived without a history row'
  end as problem
  from expected e
  left join lifecycle.namespaces n on n.id = e.id
  left join lifecycle.namespace_details d on d.namespace_id = n.id
