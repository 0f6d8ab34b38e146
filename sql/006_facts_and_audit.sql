-- Facts and audit (docs/design.md §6, the syncer). Every committed lifecycle change becomes a fact: a
-- transactional logical message (pg_logical_emit_message, prefix 'nslifecycle.fact') emitted by the
-- triggers below in the transaction that made the change, on every write path, raw SQL included.
-- The syncer reads them from a logical replication slot and turns each into exactly one audit row,
-- with notifications and webhook deliveries (lifecycle.audit_record), storing its progress in the
-- same transaction.

-- The audit action of each state change, beside the transition it names.
alter table lifecycle.state_transitions add column audit_action text;
update lifecycle.state_transitions t set audit_action = a.action
  from (values
    (null::smallint, 0::smallint, 'namespace_created'), (null, 3, 'namespace_created'),
    (1, 0, 'unarchived'), (3, 0, 'creation_completed'), (4, 0, 'deletion_failed'), (2, 0, 'restored'),
    (5, 0, 'transfer_finished'), (6, 0, 'maintenance_ended'), (0, 1, 'archived'), (4, 1, 'deletion_failed'),
    (2, 1, 'restored'), (5, 1, 'transfer_finished'), (3, 4, 'deletion_started'), (2, 4, 'deletion_started'),
    (0, 2, 'deletion_scheduled'), (1, 2, 'deletion_scheduled'), (4, 2, 'deletion_failed'),
    (0, 5, 'transfer_started'), (1, 5, 'transfer_started'), (0, 6, 'maintenance_started')
  ) as a(from_state, to_state, action)
 where t.from_state is not distinct from a.from_state and t.to_state = a.to_state;
-- Accepted (sql/README.md, Migrations without stalls): a rules table of a few dozen rows, filled
-- just above.
-- squawk-ignore adding-not-nullable-field
alter table lifecycle.state_transitions alter column audit_action set not null;

-- One row per fact, written by the syncer. idempotency_key is the source position: the commit LSN
-- of the transaction that made the change and the fact's position in it.
create table lifecycle.audit_events (
  id bigint generated always as identity primary key,
  idempotency_key text not null unique,
  source_lsn pg_lsn not null,
  source_position int not null,
  committed_at timestamptz not null,
  action text not null,
  namespace_id bigint,
  full_path text,
  actor_id bigint,
  details jsonb not null default '{}',
  recorded_at timestamptz not null default pg_catalog.now()
);

create index audit_events_namespace_id_idx on lifecycle.audit_events (namespace_id, id);
create index audit_events_committed_at_idx on lifecycle.audit_events (committed_at);

-- In-app notifications: one per user to tell (the namespace's effective owners and the actor).
create table lifecycle.notifications (
  id bigint generated always as identity primary key,
  user_id bigint not null,
  audit_event_id bigint not null references lifecycle.audit_events (id) on delete cascade,
  namespace_id bigint,
  action text not null,
  created_at timestamptz not null default pg_catalog.now(),
  read_at timestamptz,
  unique (audit_event_id, user_id)
);

create index notifications_user_id_idx on lifecycle.notifications (user_id, id) where read_at is null;

-- Webhooks: a URL told about the facts of a namespace and its descendants, optionally only some
-- actions. Deliveries are signed with the secret (X-Lifecycle-Signature: sha256=HMAC of the body).
create table lifecycle.webhooks (
  id bigint generated always as identity primary key,
  namespace_id bigint not null references lifecycle.namespaces (id) on delete cascade,
  url text not null check (url ~ '^https?://'),
  secret text not null check (pg_catalog.length(secret) >= 16),
  -- Actions to send; empty: all.
  actions text[] not null default '{}',
  active boolean not null default true,
  created_at timestamptz not null default pg_catalog.now()
);

create index webhooks_namespace_id_idx on lifecycle.webhooks (namespace_id) where active;

create table lifecycle.webhook_deliveries (
  id bigint generated always as identity primary key,
  webhook_id bigint not null references lifecycle.webhooks (id) on delete cascade,
  audit_event_id bigint not null references lifecycle.audit_events (id) on delete cascade,
  idempotency_key text not null unique,
  body jsonb not null,
  -- pending → delivered | failed (a 4xx but 408/429, for good) | dead (out of attempts).
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'dead')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null default pg_catalog.now(),
  last_status_code int,
  last_error text,
  created_at timestamptz not null default pg_catalog.now(),
  delivered_at timestamptz
);

create index webhook_deliveries_due_idx on lifecycle.webhook_deliveries (next_attempt_at) where status = 'pending';

-- Where the syncer is: the commit LSN of the last source transaction whose facts it recorded,
-- written in the same transaction as those audit rows.
create table lifecycle.syncer_progress (
  slot_name text primary key,
  lsn pg_lsn not null,
  committed_at timestamptz,
  updated_at timestamptz not null default pg_catalog.now()
);

-- The key facts are signed with: only the schema's owner (the SECURITY DEFINER fact functions) can
-- read it, so a role that calls pg_logical_emit_message itself cannot make a fact the syncer trusts.
create table lifecycle.fact_key (
  singleton boolean primary key default true check (singleton),
  key bytea not null
);
-- gen_random_uuid draws from the server's strong random source: 244 random bits.
insert into lifecycle.fact_key (key)
values (pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text, 'UTF8')));

{{ template "snapshots/006/fact_mac.sql" . }}
{{ template "snapshots/006/fact_emit.sql" . }}
{{ template "snapshots/006/namespaces_facts.sql" . }}
{{ template "snapshots/006/namespace_state_updates_facts.sql" . }}
{{ template "triggers/transfer_requests_facts.sql" . }}
{{ template "triggers/deleted_namespaces_facts.sql" . }}
{{ template "snapshots/006/namespace_members_facts.sql" . }}
{{ template "snapshots/006/audit_record.sql" . }}
{{ template "functions/webhook_deliveries_claim.sql" . }}
{{ template "functions/webhook_delivery_result.sql" . }}
{{ template "functions/syncer_progress_save.sql" . }}
{{ template "snapshots/006/syncer_publication_ensure.sql" . }}
-- rename and set_visibility now tell the fact triggers who acted (and share their checks).
{{ template "functions/operation_check.sql" . }}
{{ template "functions/namespace_rename.sql" . }}
{{ template "snapshots/006/namespace_set_visibility.sql" . }}

revoke all on all functions in schema lifecycle from public;
grant select on lifecycle.audit_events, lifecycle.notifications, lifecycle.webhooks, lifecycle.webhook_deliveries,
  lifecycle.syncer_progress to lifecycle_app, lifecycle_worker;
-- The application manages webhooks and marks notifications read; the syncer writes the rest.
grant insert, update, delete on lifecycle.webhooks to lifecycle_app;
grant update (read_at) on lifecycle.notifications to lifecycle_app;
grant execute on function
  lifecycle.audit_record(text, pg_lsn, int, timestamptz, jsonb, boolean),
  lifecycle.webhook_deliveries_claim(int, interval),
  lifecycle.webhook_delivery_result(bigint, int, text, int, interval),
  lifecycle.syncer_progress_save(text, pg_lsn, timestamptz),
  lifecycle.syncer_publication_ensure(text)
  to lifecycle_worker;
grant execute on function
  lifecycle.namespace_rename(bigint, text, bigint),
  lifecycle.namespace_set_visibility(bigint, text, bigint)
  to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

{{ template "snapshots/003/namespace_rename.sql" . }}
{{ template "snapshots/003/namespace_set_visibility.sql" . }}
drop function lifecycle.operation_check(lifecycle.namespaces, bigint, text, text, boolean);
revoke all on lifecycle.audit_events, lifecycle.notifications, lifecycle.webhooks, lifecycle.webhook_deliveries,
  lifecycle.syncer_progress from lifecycle_app, lifecycle_worker;
drop function lifecycle.syncer_publication_ensure(text);
drop function lifecycle.syncer_progress_save(text, pg_lsn, timestamptz);
drop function lifecycle.webhook_delivery_result(bigint, int, text, int, interval);
drop function lifecycle.webhook_deliveries_claim(int, interval);
drop function lifecycle.audit_record(text, pg_lsn, int, timestamptz, jsonb, boolean);
drop trigger namespace_members_facts on lifecycle.namespace_members;
drop trigger deleted_namespaces_facts on lifecycle.deleted_namespaces;
drop trigger transfer_requests_facts on lifecycle.transfer_requests;
drop trigger namespace_state_updates_facts on lifecycle.namespace_state_updates;
drop trigger namespaces_4_facts on lifecycle.namespaces;
drop function lifecycle.namespace_members_facts();
drop function lifecycle.deleted_namespaces_facts();
drop function lifecycle.transfer_requests_facts();
drop function lifecycle.namespace_state_updates_facts();
drop function lifecycle.namespaces_facts();
drop function lifecycle.fact_emit(text, bigint, bigint[], text, bigint, jsonb);
drop function lifecycle.fact_mac(jsonb);
drop table lifecycle.fact_key;
drop table lifecycle.syncer_progress;
drop table lifecycle.webhook_deliveries;
drop table lifecycle.webhooks;
drop table lifecycle.notifications;
drop table lifecycle.audit_events;
alter table lifecycle.state_transitions drop column audit_action;
