-- The sweeper's rules (docs/design.md §6, seed 004): adjourned deletion with the scheduler's permission
-- re-checked, requeue with an attempt count, and recovery of operations stuck in progress. The Go
-- sweeper only loops over these functions; every decision is made here, under the row locks.

-- Who may hold a namespace for the sweep: a session-level advisory lock, so two sweepers never
-- work on one namespace at once, and a sweeper that dies releases it with its connection.
create function lifecycle.sweep_claim(namespace_id bigint)
returns boolean
language sql
set search_path to ''
as $$
  select pg_catalog.pg_try_advisory_lock(pg_catalog.hashtextextended('lifecycle sweep ' || namespace_id, 0))
$$;

create function lifecycle.sweep_release(namespace_id bigint)
returns boolean
language sql
set search_path to ''
as $$
  select pg_catalog.pg_advisory_unlock(pg_catalog.hashtextextended('lifecycle sweep ' || namespace_id, 0))
$$;

{{ template "snapshots/005/sweep_deletion_candidates.sql" . }}
{{ template "functions/sweep_adjourned_deletion.sql" . }}
{{ template "functions/sweep_deletion_failed.sql" . }}
{{ template "snapshots/005/sweep_stuck_operations.sql" . }}
{{ template "functions/sweep_abandoned_creation.sql" . }}

-- attempt_count belongs to one deletion: a namespace back in a permanent state starts afresh.
{{ template "snapshots/005/namespaces_state_record.sql" . }}

revoke all on all functions in schema lifecycle from public;
grant execute on function
  lifecycle.sweep_claim(bigint),
  lifecycle.sweep_release(bigint),
  lifecycle.sweep_deletion_candidates(timestamptz, int, int, timestamptz, bigint),
  lifecycle.sweep_adjourned_deletion(bigint, timestamptz),
  lifecycle.sweep_deletion_failed(bigint, text, int),
  lifecycle.sweep_stuck_operations(timestamptz, interval, interval, int),
  lifecycle.sweep_abandoned_creation(bigint, timestamptz, interval)
  to lifecycle_worker;

---- create above / drop below ----

{{ template "snapshots/002/namespaces_state_record.sql" . }}
drop function lifecycle.sweep_abandoned_creation(bigint, timestamptz, interval);
drop function lifecycle.sweep_stuck_operations(timestamptz, interval, interval, int);
drop function lifecycle.sweep_deletion_failed(bigint, text, int);
drop function lifecycle.sweep_adjourned_deletion(bigint, timestamptz);
drop function lifecycle.sweep_deletion_candidates(timestamptz, int, int, timestamptz, bigint);
drop function lifecycle.sweep_release(bigint);
drop function lifecycle.sweep_claim(bigint);
