-- Lifecycle operations, part 2 (docs/design.md §5): transfer requests (request, accept, decline, cancel,
-- expire) and the asynchronous move they lead to; moves happen only while a namespace is
-- transfer_in_progress; rows are removed only below a deletion in progress, deepest first in
-- bounded batches, leaving a snapshot of what was deleted.

create table lifecycle.transfer_requests (
  id bigint generated always as identity primary key,
  namespace_id bigint not null references lifecycle.namespaces (id) on delete cascade,
  from_parent_id bigint,
  to_parent_id bigint not null references lifecycle.namespaces (id) on delete cascade,
  requested_by bigint not null,
  -- pending → accepted → completed | failed; pending → declined | canceled | expired.
  status text not null default 'pending'
    check (status in ('pending', 'accepted', 'declined', 'canceled', 'expired', 'completed', 'failed')),
  expires_at timestamptz not null,
  decided_by bigint,
  decided_at timestamptz,
  completed_at timestamptz,
  last_error text,
  created_at timestamptz not null default pg_catalog.now()
);

comment on table lifecycle.transfer_requests is
  'Offers to move a namespace below a new parent; the row''s status is the audit fact of each step.';

-- One open request per namespace.
create unique index transfer_requests_open_key on lifecycle.transfer_requests (namespace_id)
  where status in ('pending', 'accepted');
-- The sweeper expires pending requests by age.
create index transfer_requests_expires_at_idx on lifecycle.transfer_requests (expires_at) where status = 'pending';
create index transfer_requests_to_parent_id_idx on lifecycle.transfer_requests (to_parent_id);

-- What a hard delete removed: the deleted root, for the audit trail once its rows are gone.
create table lifecycle.deleted_namespaces (
  namespace_id bigint primary key,
  full_path text not null,
  type text not null,
  parent_id bigint,
  traversal_ids bigint[] not null,
  deletion_scheduled_by bigint,
  deletion_scheduled_at timestamptz,
  descendant_count bigint not null,
  deleted_at timestamptz not null default pg_catalog.now()
);

{{ template "snapshots/004/transfer_target_refusal.sql" . }}
{{ template "functions/transfer_request_lock.sql" . }}
{{ template "functions/transfer_request_lock_open.sql" . }}
{{ template "snapshots/004/transfer_accept_locked.sql" . }}
{{ template "snapshots/004/namespace_transfer_request.sql" . }}
{{ template "functions/namespace_transfer_accept.sql" . }}
{{ template "functions/namespace_transfer_decline.sql" . }}
{{ template "functions/namespace_transfer_cancel.sql" . }}
{{ template "functions/transfer_requests_expire.sql" . }}
{{ template "snapshots/004/namespace_transfer_execute.sql" . }}
{{ template "snapshots/004/namespace_hard_delete.sql" . }}
{{ template "snapshots/004/namespace_hard_delete_all.sql" . }}
{{ template "triggers/namespaces_moves.sql" . }}
{{ template "triggers/namespaces_deletion_guard.sql" . }}

revoke all on all functions in schema lifecycle from public;
revoke all on all procedures in schema lifecycle from public;

grant select on lifecycle.transfer_requests, lifecycle.deleted_namespaces to lifecycle_app, lifecycle_worker;
grant execute on function
  lifecycle.namespace_transfer_request(bigint, bigint, bigint),
  lifecycle.namespace_transfer_accept(bigint, bigint),
  lifecycle.namespace_transfer_decline(bigint, bigint),
  lifecycle.namespace_transfer_cancel(bigint, bigint),
  lifecycle.namespace_transfer_execute(bigint)
  to lifecycle_app, lifecycle_worker;
-- Time-based and destructive work belongs to the workers (sweeper, syncer).
grant execute on function
  lifecycle.transfer_requests_expire(timestamptz),
  lifecycle.namespace_hard_delete(bigint, int)
  to lifecycle_worker;
grant execute on procedure lifecycle.namespace_hard_delete_all(bigint, int) to lifecycle_worker;

---- create above / drop below ----

revoke all on lifecycle.transfer_requests, lifecycle.deleted_namespaces from lifecycle_app, lifecycle_worker;
drop trigger namespaces_deletion_guard on lifecycle.namespaces;
drop trigger namespaces_2_moves on lifecycle.namespaces;
drop function lifecycle.namespaces_deletion_guard();
drop function lifecycle.namespaces_moves();
drop procedure lifecycle.namespace_hard_delete_all(bigint, int);
drop function lifecycle.namespace_hard_delete(bigint, int);
drop function lifecycle.namespace_transfer_execute(bigint);
drop function lifecycle.transfer_requests_expire(timestamptz);
drop function lifecycle.namespace_transfer_cancel(bigint, bigint);
drop function lifecycle.namespace_transfer_decline(bigint, bigint);
drop function lifecycle.namespace_transfer_accept(bigint, bigint);
drop function lifecycle.namespace_transfer_request(bigint, bigint, bigint);
drop function lifecycle.transfer_accept_locked(lifecycle.transfer_requests, bigint);
drop function lifecycle.transfer_request_lock_open(bigint, text);
drop function lifecycle.transfer_request_lock(bigint);
drop function lifecycle.transfer_target_refusal(bigint, bigint);
drop table lifecycle.deleted_namespaces;
drop table lifecycle.transfer_requests;
