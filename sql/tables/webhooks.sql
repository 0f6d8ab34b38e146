-- Webhooks: a URL told about the facts of a namespace and its descendants, optionally only some
-- actions. Written by the application directly; webhooks_validate refuses a missing namespace
-- (NS004) and a URL, secret or actions out of bounds (NS010), a URL pointing at the operator's own
-- network among them, unless settings.webhook_allowed_hosts allows it.
create table lifecycle.webhooks (
  id bigint generated always as identity,
  namespace_id bigint not null,
  url text not null,
  -- Signs the deliveries (X-Lifecycle-Signature: sha256=HMAC of the body). No role but the schema's
  -- owner reads it back (the column grants leave it out): webhook_deliveries_claim hands it to the
  -- syncer with the deliveries it leases.
  secret text not null,
  -- Actions to send; empty: all.
  actions text[] default '{}'::text[] not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  constraint webhooks_pkey primary key (id),
  constraint webhooks_secret_check check ((length(secret) >= 16)),
  constraint webhooks_url_check check ((url ~ '^https?://'::text)),
  constraint webhooks_namespace_id_fkey foreign key (namespace_id) references lifecycle.namespaces(id) on delete cascade
);

create index webhooks_namespace_id_idx on lifecycle.webhooks (namespace_id) where active;
