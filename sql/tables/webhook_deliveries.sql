-- One delivery per audit row and matching webhook, written by the syncer (facts_record) with the
-- audit row. The syncer leases the due ones (webhook_deliveries_claim) and records each attempt
-- (webhook_delivery_result), retrying with backoff until its attempts run out.
create table lifecycle.webhook_deliveries (
  id bigint generated always as identity,
  webhook_id bigint not null,
  audit_event_id bigint not null,
  -- The audit row's idempotency key and /<webhook id>.
  idempotency_key text not null,
  body jsonb not null,
  -- pending → delivered | failed (a 4xx but 408/429, for good) | dead (out of attempts).
  status text default 'pending'::text not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  last_status_code integer,
  last_error text,
  created_at timestamp with time zone default now() not null,
  delivered_at timestamp with time zone,
  constraint webhook_deliveries_pkey primary key (id),
  constraint webhook_deliveries_idempotency_key_key unique (idempotency_key),
  constraint webhook_deliveries_status_check check ((status = any (array['pending'::text, 'delivered'::text, 'failed'::text, 'dead'::text]))),
  constraint webhook_deliveries_audit_event_id_fkey foreign key (audit_event_id) references lifecycle.audit_events(id) on delete cascade,
  constraint webhook_deliveries_webhook_id_fkey foreign key (webhook_id) references lifecycle.webhooks(id) on delete cascade
);

create index webhook_deliveries_due_idx on lifecycle.webhook_deliveries (next_attempt_at) where (status = 'pending'::text);
