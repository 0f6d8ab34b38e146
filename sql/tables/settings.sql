-- Operational settings, one row: the grace period, the transfer requests' lifetime, the rename rate
-- limit, the sweeper's batch sizes, delete now, the webhook hosts. The schema owner's to change;
-- settings_validate refuses (NS010) a row settings_refusal finds wrong.
create table lifecycle.settings (
  singleton boolean default true not null,
  -- Days a scheduled deletion waits until the sweeper deletes it (the grace period for restore).
  deletion_adjourned_period_days integer default 7 not null,
  -- How long a transfer request stays pending until it expires.
  transfer_request_ttl interval default '7 days'::interval not null,
  -- At most rename_limit path changes per namespace within rename_window.
  rename_limit integer default 5 not null,
  rename_window interval default '30 days'::interval not null,
  -- Namespaces the sweeper claims per batch, and rows one hard-delete batch removes.
  sweep_batch_size integer default 100 not null,
  hard_delete_batch_size integer default 1000 not null,
  -- Whether owners may skip the grace period (deletion_scheduled → deletion_in_progress).
  delete_now_allowed boolean default true not null,
  updated_at timestamp with time zone default now() not null,
  -- Checked by webhook_allowed_hosts_refusal; webhooks_validate refuses other non-public URLs at
  -- registration, and the syncer checks every resolved address again when it dials.
  webhook_allowed_hosts text[] default '{}'::text[] not null,
  constraint settings_pkey primary key (singleton),
  constraint settings_singleton_check check (singleton)
);

comment on table lifecycle.settings is
  'Operational settings, one row; every change is validated (NS010).';
comment on column lifecycle.settings.webhook_allowed_hosts is
  'Hosts (lower-case names, matched exactly) and addresses or CIDR ranges webhooks may be sent to although they are loopback, private, link-local, …: the operator''s own receivers. Empty: public addresses only.';

insert into lifecycle.settings default values;
