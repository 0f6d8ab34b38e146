-- The address ranges a webhook may not be sent to: the one list both checks read, the refusal at
-- registration (webhook_address_refusal, through webhook_url_refusal) and the syncer's dial guard
-- (internal/syncer/webhookguard.go, which reads the rows before each batch of deliveries and sends
-- nothing while it cannot). A webhook URL is the application's to choose and the syncer POSTs
-- from inside the operator's network, so every range that is not a public receiver's is here: the
-- entries of IANA's special-purpose address registries (IPv4 and IPv6) that are not globally
-- reachable, and the multicast, deprecated and unallocated space no receiver can be in. An
-- address is judged by the longest range that holds it, whose reason the refusal names; an IPv4
-- address written as IPv6 (IPv4-mapped ::ffff:a.b.c.d, or the well-known NAT64 prefix
-- 64:ff9b::/96) is judged as the IPv4 address it reaches, so neither prefix is a row. The schema
-- owner's to change; the roles only read it. An operator's own receivers are allowed in
-- lifecycle.settings.webhook_allowed_hosts, not by deleting rows here (the syncer takes an empty
-- table as unreadable, and sends nothing).
create table lifecycle.webhook_forbidden_ranges (
  network cidr not null,
  -- What the refusal says of an address in the range ("url host 192.0.2.1 is <reason>").
  reason text not null,
  -- The registry entry (or the RFC) the range comes from.
  source text not null,
  constraint webhook_forbidden_ranges_pkey primary key (network),
  constraint webhook_forbidden_ranges_reason_check check (pg_catalog.char_length(reason) between 1 and 200),
  constraint webhook_forbidden_ranges_source_check check (pg_catalog.char_length(source) between 1 and 200)
);

comment on table lifecycle.webhook_forbidden_ranges is
  'Address ranges webhooks may not be sent to (IANA special-purpose entries not globally reachable, multicast, deprecated, unallocated); read by webhook_address_refusal and the syncer''s dial guard; the longest range holding an address names the reason.';

insert into lifecycle.webhook_forbidden_ranges (network, reason, source) values
  -- IANA IPv4 Special-Purpose Address Registry, the entries not globally reachable: none can hold
  -- a public receiver, and each reaches this machine, the operator's own networks, or nothing.
  -- 0.0.0.0 itself dials this machine on Linux.
  ('0.0.0.0/8', 'this network (0.0.0.0/8)', 'IANA IPv4 special-purpose: "This network", RFC 791'),
  ('0.0.0.0/32', 'this host (0.0.0.0, which reaches this machine)', 'IANA IPv4 special-purpose: "This host on this network", RFC 1122'),
  ('10.0.0.0/8', 'private (10.0.0.0/8, RFC 1918)', 'IANA IPv4 special-purpose: Private-Use, RFC 1918'),
  ('100.64.0.0/10', 'shared address space of carrier-grade NAT (100.64.0.0/10)', 'IANA IPv4 special-purpose: Shared Address Space, RFC 6598'),
  ('127.0.0.0/8', 'loopback (127.0.0.0/8)', 'IANA IPv4 special-purpose: Loopback, RFC 1122'),
  ('169.254.0.0/16', 'link-local (169.254.0.0/16, where cloud metadata services answer)', 'IANA IPv4 special-purpose: Link Local, RFC 3927'),
  ('172.16.0.0/12', 'private (172.16.0.0/12, RFC 1918)', 'IANA IPv4 special-purpose: Private-Use, RFC 1918'),
  ('192.168.0.0/16', 'private (192.168.0.0/16, RFC 1918)', 'IANA IPv4 special-purpose: Private-Use, RFC 1918'),
  ('192.0.2.0/24', 'reserved for documentation (192.0.2.0/24, TEST-NET-1)', 'IANA IPv4 special-purpose: Documentation (TEST-NET-1), RFC 5737'),
  ('198.51.100.0/24', 'reserved for documentation (198.51.100.0/24, TEST-NET-2)', 'IANA IPv4 special-purpose: Documentation (TEST-NET-2), RFC 5737'),
  ('203.0.113.0/24', 'reserved for documentation (203.0.113.0/24, TEST-NET-3)', 'IANA IPv4 special-purpose: Documentation (TEST-NET-3), RFC 5737'),
  ('198.18.0.0/15', 'reserved for benchmarking (198.18.0.0/15)', 'IANA IPv4 special-purpose: Benchmarking, RFC 2544'),
  ('240.0.0.0/4', 'reserved (240.0.0.0/4, broadcast included)', 'IANA IPv4 special-purpose: Reserved, RFC 1112'),
  ('255.255.255.255/32', 'limited broadcast (255.255.255.255)', 'IANA IPv4 special-purpose: Limited Broadcast, RFC 8190, RFC 919'),
  -- 192.0.0.0/24, IETF Protocol Assignments, is not globally reachable and is refused whole: some
  -- clouds answer their metadata service there (192.0.0.192). Its more specific entries name the
  -- reason where they have one. Two of them are registered globally reachable, 192.0.0.9 (Port
  -- Control Protocol anycast) and 192.0.0.10 (TURN anycast); they stay refused with the block:
  -- an anycast address answers as the nearest server of its protocol, which for PCP is the
  -- operator's own NAT gateway, and neither is a webhook receiver.
  ('192.0.0.0/24', 'reserved for IETF protocol assignments (192.0.0.0/24, where some cloud metadata services answer)', 'IANA IPv4 special-purpose: IETF Protocol Assignments, RFC 6890'),
  ('192.0.0.0/29', 'the IPv4 service continuity prefix (192.0.0.0/29, DS-Lite)', 'IANA IPv4 special-purpose: IPv4 Service Continuity Prefix, RFC 7335'),
  ('192.0.0.8/32', 'the IPv4 dummy address (192.0.0.8)', 'IANA IPv4 special-purpose: IPv4 dummy address, RFC 7600'),
  ('192.0.0.170/32', 'NAT64/DNS64 discovery (192.0.0.170)', 'IANA IPv4 special-purpose: NAT64/DNS64 Discovery, RFC 8880'),
  ('192.0.0.171/32', 'NAT64/DNS64 discovery (192.0.0.171)', 'IANA IPv4 special-purpose: NAT64/DNS64 Discovery, RFC 8880'),
  -- The 6to4 relay anycast block is withdrawn (its entry has no reachability): what answers there
  -- is whichever relay is nearest, which tunnels on to an address nobody checked. 192.88.99.2
  -- (6a44 relay anycast) is not globally reachable.
  ('192.88.99.0/24', 'deprecated 6to4 relay anycast (192.88.99.0/24)', 'IANA IPv4 special-purpose: Deprecated (6to4 Relay Anycast), RFC 7526'),
  ('192.88.99.2/32', '6a44 relay anycast (192.88.99.2)', 'IANA IPv4 special-purpose: 6a44-relay anycast address, RFC 6751'),
  -- Left out, being globally reachable and public: 192.31.196.0/24 (AS112-v4), 192.52.193.0/24
  -- (AMT), 192.175.48.0/24 (AS112 direct delegation).

  -- IPv4 multicast (the IANA IPv4 Multicast Address Space registry): a webhook is one connection
  -- to one receiver, and a group address is none.
  ('224.0.0.0/4', 'multicast (224.0.0.0/4)', 'IANA IPv4 Multicast Address Space, RFC 5771'),

  -- IANA IPv6 Special-Purpose Address Registry, the entries not globally reachable, as for IPv4.
  -- ::ffff:0:0/96 (IPv4-mapped) and 64:ff9b::/96 (NAT64, globally reachable) are no rows: an
  -- address in them is judged as the IPv4 address it reaches.
  ('::/128', 'unspecified (::)', 'IANA IPv6 special-purpose: Unspecified Address, RFC 4291'),
  ('::1/128', 'loopback (::1)', 'IANA IPv6 special-purpose: Loopback Address, RFC 4291'),
  ('64:ff9b:1::/48', 'local-use NAT64 (64:ff9b:1::/48)', 'IANA IPv6 special-purpose: IPv4-IPv6 Translat., RFC 8215'),
  ('100::/64', 'discard-only (100::/64)', 'IANA IPv6 special-purpose: Discard-Only Address Block, RFC 6666'),
  ('100:0:0:1::/64', 'a dummy IPv6 prefix (100:0:0:1::/64)', 'IANA IPv6 special-purpose: Dummy IPv6 Prefix, RFC 9780'),
  ('2001:db8::/32', 'reserved for documentation (2001:db8::/32)', 'IANA IPv6 special-purpose: Documentation, RFC 3849'),
  ('3fff::/20', 'reserved for documentation (3fff::/20)', 'IANA IPv6 special-purpose: Documentation, RFC 9637'),
  ('5f00::/16', 'segment routing identifiers (5f00::/16, SRv6)', 'IANA IPv6 special-purpose: Segment Routing (SRv6) SIDs, RFC 9602'),
  ('fc00::/7', 'unique local (fc00::/7, private)', 'IANA IPv6 special-purpose: Unique-Local, RFC 4193'),
  ('fe80::/10', 'link-local (fe80::/10)', 'IANA IPv6 special-purpose: Link-Local Unicast, RFC 4291'),
  -- 2001::/23, IETF Protocol Assignments, is not globally reachable and is refused whole, as
  -- 192.0.0.0/24 is. Its entries registered globally reachable stay refused with it: the anycast
  -- addresses of PCP, TURN and DNS-SD registration (2001:1::1 to 2001:1::3) answer as the nearest
  -- server of their protocol, AMT relays (2001:3::/32) and AS112 (2001:4:112::/48) are protocol
  -- infrastructure, and ORCHIDv2 (2001:20::/28) and drone entity tags (2001:30::/28) are
  -- identifiers, not where a receiver listens. Teredo (no reachability in its entry) tunnels to the
  -- IPv4 hosts its addresses embed, past the IPv4 check.
  ('2001::/23', 'reserved for IETF protocol assignments (2001::/23)', 'IANA IPv6 special-purpose: IETF Protocol Assignments, RFC 2928'),
  ('2001::/32', 'Teredo (2001::/32, which tunnels to IPv4 hosts)', 'IANA IPv6 special-purpose: TEREDO, RFC 4380'),
  ('2001:2::/48', 'reserved for benchmarking (2001:2::/48)', 'IANA IPv6 special-purpose: Benchmarking, RFC 5180'),
  ('2001:10::/28', 'deprecated ORCHID (2001:10::/28)', 'IANA IPv6 special-purpose: Deprecated (previously ORCHID), RFC 4843'),
  -- 6to4 (no reachability in its entry) reaches the IPv4 address in its bits 16 to 47 through
  -- whichever relay is nearest: 2002:7f00:1:: is 127.0.0.1 to a relay on the operator's network.
  ('2002::/16', '6to4 (2002::/16, which tunnels to the IPv4 address it embeds)', 'IANA IPv6 special-purpose: 6to4, RFC 3056'),
  -- Left out, being globally reachable and public: 2620:4f:8000::/48 (AS112 direct delegation).

  -- Deprecated IPv6 forms (RFC 4291, RFC 3879): no longer assigned, so whatever answers is the
  -- operator's own routing.
  ('::/96', 'IPv4-compatible IPv6 (::/96, deprecated)', 'RFC 4291 section 2.5.5.1: IPv4-Compatible IPv6 Address, deprecated'),
  ('fec0::/10', 'site-local (fec0::/10, deprecated)', 'RFC 3879: site-local addresses, deprecated'),
  -- IPv6 multicast (RFC 4291), as for IPv4.
  ('ff00::/8', 'multicast (ff00::/8)', 'IANA IPv6 Address Space: Multicast, RFC 4291'),
  -- IANA IPv6 Address Space: the blocks reserved by the IETF. Only 2000::/3 is allocated for
  -- global unicast, so nothing public is outside it and the blocks above; an address there
  -- reaches whatever the operator's own routing makes of it (as 240.0.0.0/4 does for IPv4).
  ('::/8', 'reserved by the IETF (::/8, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('100::/8', 'reserved by the IETF (100::/8, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('200::/7', 'reserved by the IETF (200::/7, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4048'),
  ('400::/6', 'reserved by the IETF (400::/6, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('800::/5', 'reserved by the IETF (800::/5, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('1000::/4', 'reserved by the IETF (1000::/4, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('4000::/3', 'reserved by the IETF (4000::/3, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('6000::/3', 'reserved by the IETF (6000::/3, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('8000::/3', 'reserved by the IETF (8000::/3, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('a000::/3', 'reserved by the IETF (a000::/3, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('c000::/3', 'reserved by the IETF (c000::/3, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('e000::/4', 'reserved by the IETF (e000::/4, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('f000::/5', 'reserved by the IETF (f000::/5, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('f800::/6', 'reserved by the IETF (f800::/6, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291'),
  ('fe00::/9', 'reserved by the IETF (fe00::/9, not allocated)', 'IANA IPv6 Address Space: Reserved by IETF, RFC 4291');
