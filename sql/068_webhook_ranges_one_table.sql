-- The address ranges webhooks may not be sent to are one table, lifecycle.webhook_forbidden_ranges:
-- the IANA special-purpose entries that are not globally reachable (192.0.0.0/24, where a cloud's
-- metadata service answers, benchmarking, documentation, 6to4 and the others), read both by the
-- registration check and by the syncer's dial guard. A webhook host is read in Unicode NFKC, with
-- the ideographic full stops as dots and in lower case, so that ⓛocalhost and １２７.０.０.１ are
-- refused as localhost and 127.0.0.1. The application role reads the table and cannot write it.
{{ template "tables/webhook_forbidden_ranges.sql" . }}
grant select on table lifecycle.webhook_forbidden_ranges to lifecycle_app, lifecycle_worker;
{{ template "functions/webhook_address_refusal.sql" . }}
{{ template "functions/webhook_url_refusal.sql" . }}
{{ template "triggers/webhooks_validate.sql" . }}

---- create above / drop below ----

{{ template "released/1.0.0/triggers/webhooks_validate.sql" . }}
{{ template "released/1.0.0/functions/webhook_url_refusal.sql" . }}
{{ template "released/1.0.0/functions/webhook_address_refusal.sql" . }}
drop table lifecycle.webhook_forbidden_ranges;
