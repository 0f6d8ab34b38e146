-- Namespaces whose adjourned deletion is due at as_of: own state deletion_scheduled, scheduled
-- before as_of minus lifecycle.settings.deletion_adjourned_period_days, fewer than max_attempts
-- failed attempts; oldest first, a page at a time (keyset: after the (scheduled_at, id) given),
-- through namespaces_deletion_scheduled_idx. Listing claims nothing: sweep_adjourned_deletion
-- re-checks each one under its lock.
create function lifecycle.sweep_deletion_candidates(
  as_of timestamptz,
  max_attempts int,
  page_size int,
  after_scheduled_at timestamptz default null,
  after_id bigint default null
)
returns table (namespace_id bigint, full_path text, deletion_scheduled_at timestamptz,
               deletion_scheduled_by bigint, attempt_count int)
language sql
stable
set search_path to ''
as $$
  select n.id, lifecycle.namespace_full_path(n.id), n.deletion_scheduled_at, n.deletion_scheduled_by,
         coalesce((d.state_metadata ->> 'attempt_count')::int, 0)
    from lifecycle.namespaces n
    left join lifecycle.namespace_details d on d.namespace_id = n.id
   where n.state = 2
     and n.deletion_scheduled_at < as_of - pg_catalog.make_interval(
           days => (select s.deletion_adjourned_period_days from lifecycle.settings s))
     and (after_scheduled_at is null or (n.deletion_scheduled_at, n.id) > (after_scheduled_at, after_id))
     and coalesce((d.state_metadata ->> 'attempt_count')::int, 0) < max_attempts
   order by n.deletion_scheduled_at, n.id
   limit page_size
$$;
