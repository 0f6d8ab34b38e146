-- Webhooks and LISTEN tell a tenant nothing it may not know, and reach nothing it may not reach
-- (issue 23, docs/design.md §6.2, docs/reliability.md):
--
--   * A webhook URL chosen by the application made the syncer POST into the operator's network
--     (169.254.169.254, 127.0.0.1:5432, 10.x, user:pw@…, 0x7f000001). A URL is now refused at
--     registration (webhooks_validate, NS010) when it carries userinfo, names localhost, or its
--     host is an IP address, in any numeric form, in a loopback, private, link-local, CGNAT,
--     unspecified, multicast or reserved range (webhook_url_refusal, webhook_address_refusal);
--     the syncer checks every resolved address again when it dials. The operator lifts the
--     refusal for hosts and ranges of its own in lifecycle.settings.webhook_allowed_hosts (the
--     schema owner's, like every setting; webhook_allowed_hosts_refusal validates it).
--   * The secret signs deliveries; neither the application, which registers it, nor the worker
--     role may read it back: column privileges leave it out. Only webhook_deliveries_claim
--     (SECURITY DEFINER, lifecycle_worker) hands it to the syncer with the deliveries it leases.
--   * pg_notify('nslifecycle_audit') carried {id, action, namespace_id}, and any login may LISTEN:
--     it now carries no payload (audit_record).
-- Webhooks registered before keep their URLs; the syncer refuses to send to a forbidden address,
-- and records that as the delivery's error.

alter table lifecycle.settings add column webhook_allowed_hosts text[] not null default '{}';
comment on column lifecycle.settings.webhook_allowed_hosts is
  'Hosts (lower-case names, matched exactly) and addresses or CIDR ranges webhooks may be sent to although they are loopback, private, link-local, …: the operator''s own receivers. Empty: public addresses only.';

{{ template "functions/webhook_allowed_hosts_refusal.sql" . }}
{{ template "functions/settings_refusal.sql" . }}
{{ template "functions/webhook_address_refusal.sql" . }}
{{ template "functions/webhook_url_refusal.sql" . }}
drop trigger webhooks_validate on lifecycle.webhooks;
drop function lifecycle.webhooks_validate();
{{ template "triggers/webhooks_validate.sql" . }}
{{ template "snapshots/030/audit_record.sql" . }}

revoke all on function lifecycle.webhook_allowed_hosts_refusal(text[]), lifecycle.settings_refusal(lifecycle.settings),
  lifecycle.webhook_address_refusal(inet), lifecycle.webhook_url_refusal(text, text[]), lifecycle.webhooks_validate()
  from public;
-- The application's trigger calls them as the application.
grant execute on function lifecycle.webhook_url_refusal(text, text[]), lifecycle.webhook_address_refusal(inet)
  to lifecycle_app, lifecycle_worker;

revoke select on lifecycle.webhooks from lifecycle_app, lifecycle_worker;
grant select (id, namespace_id, url, actions, active, created_at) on lifecycle.webhooks to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

revoke select (id, namespace_id, url, actions, active, created_at) on lifecycle.webhooks from lifecycle_app, lifecycle_worker;
grant select on lifecycle.webhooks to lifecycle_app, lifecycle_worker;

{{ template "snapshots/026/audit_record.sql" . }}
drop trigger webhooks_validate on lifecycle.webhooks;
drop function lifecycle.webhooks_validate();
{{ template "snapshots/011/webhooks_validate.sql" . }}
drop function lifecycle.settings_refusal(lifecycle.settings);
{{ template "snapshots/003/settings_refusal.sql" . }}
drop function lifecycle.webhook_url_refusal(text, text[]);
drop function lifecycle.webhook_address_refusal(inet);
drop function lifecycle.webhook_allowed_hosts_refusal(text[]);
alter table lifecycle.settings drop column webhook_allowed_hosts;
revoke all on function lifecycle.settings_refusal(lifecycle.settings), lifecycle.webhooks_validate() from public;
