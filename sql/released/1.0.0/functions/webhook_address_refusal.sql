-- Why the syncer may not send a webhook to an address, or null when it may. A webhook URL is
-- chosen by the application role, and the syncer POSTs from inside the operator's network: without
-- this, any tenant could make it reach the cloud metadata service, the database's own port, or
-- anything on a private network (server-side request forgery). The syncer applies the same list
-- to every address a host resolves to when it dials (internal/syncer/webhookguard.go); the two
-- lists are kept equal by a test (TestAddressRulesAgreeWithSQL). An address of an IPv4 range
-- written as IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d through a NAT64 gateway) is judged as the
-- IPv4 address it reaches. lifecycle.settings.webhook_allowed_hosts lifts the refusal
-- (webhook_url_refusal), not this function.
create or replace function lifecycle.webhook_address_refusal(address inet)
returns text
language sql
immutable
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
    from a, (values
      (inet '0.0.0.0/8', 'this network (0.0.0.0/8)'),
      (inet '10.0.0.0/8', 'private (10.0.0.0/8, RFC 1918)'),
      (inet '100.64.0.0/10', 'shared address space of carrier-grade NAT (100.64.0.0/10)'),
      (inet '127.0.0.0/8', 'loopback (127.0.0.0/8)'),
      (inet '169.254.0.0/16', 'link-local (169.254.0.0/16, where cloud metadata services answer)'),
      (inet '172.16.0.0/12', 'private (172.16.0.0/12, RFC 1918)'),
      (inet '192.168.0.0/16', 'private (192.168.0.0/16, RFC 1918)'),
      (inet '224.0.0.0/4', 'multicast (224.0.0.0/4)'),
      (inet '240.0.0.0/4', 'reserved (240.0.0.0/4, broadcast included)'),
      (inet '::/128', 'unspecified (::)'),
      (inet '::1/128', 'loopback (::1)'),
      (inet '::/96', 'IPv4-compatible IPv6 (::/96, deprecated)'),
      (inet '64:ff9b:1::/48', 'local-use NAT64 (64:ff9b:1::/48)'),
      (inet 'fc00::/7', 'unique local (fc00::/7, private)'),
      (inet 'fe80::/10', 'link-local (fe80::/10)'),
      (inet 'fec0::/10', 'site-local (fec0::/10, deprecated)'),
      (inet 'ff00::/8', 'multicast (ff00::/8)')
    ) as r(network, reason)
   where pg_catalog.family(a.ip) = pg_catalog.family(r.network) and a.ip <<= r.network
   order by pg_catalog.masklen(r.network) desc
   limit 1
$$;

comment on function lifecycle.webhook_address_refusal(inet) is
  'Why a webhook may not be sent to this address (loopback, private, link-local, CGNAT, unspecified, multicast, reserved; IPv4-mapped judged as IPv4), or null.';
