-- Why the syncer may not send a webhook to an address, or null when it may. A webhook URL is
-- chosen by the application role, and the syncer POSTs from inside the operator's network: without
-- this, any tenant could make it reach the cloud metadata service, the database's own port, or
-- anything on a private network (server-side request forgery). The ranges are the rows of
-- lifecycle.webhook_forbidden_ranges, which the syncer's dial guard reads too
-- (internal/syncer/webhookguard.go: the same rules on every address a host resolves to;
-- TestAddressRulesAgreeWithSQL compares the two). The longest range holding the address names the
-- reason. An address of an IPv4 range written as IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d through a
-- NAT64 gateway) is judged as the IPv4 address it reaches. lifecycle.settings.webhook_allowed_hosts
-- lifts the refusal (webhook_url_refusal), not this function. STABLE: it reads a table.
create or replace function lifecycle.webhook_address_refusal(address inet)
returns text
language sql
stable
strict
set search_path to ''
as $$
  with a as (
    select case
             when pg_catalog.family(address) = 6 and address <<= inet '::ffff:0.0.0.0/96'
               then inet '0.0.0.0' + (pg_catalog.host(address)::inet - inet '::ffff:0.0.0.0')
             when pg_catalog.family(address) = 6 and address <<= inet '64:ff9b::/96'
               then inet '0.0.0.0' + (pg_catalog.host(address)::inet - inet '64:ff9b::')
             else pg_catalog.host(address)::inet
           end as ip
  )
  select r.reason
    from a, lifecycle.webhook_forbidden_ranges r
   where pg_catalog.family(a.ip) = pg_catalog.family(r.network) and a.ip <<= r.network
   order by pg_catalog.masklen(r.network) desc
   limit 1
$$;

comment on function lifecycle.webhook_address_refusal(inet) is
  'Why a webhook may not be sent to this address (the longest range of lifecycle.webhook_forbidden_ranges holding it; IPv4-mapped and NAT64 judged as IPv4), or null.';
