-- An address is judged by the rows of lifecycle.webhook_forbidden_ranges: the longest range that
-- holds it names the reason in the DETAIL, and an IPv4 address written as IPv6 (IPv4-mapped,
-- NAT64) is judged as the IPv4 address it reaches.
begin;
select plan(10);

grant usage on schema tap to lifecycle_app;
set local role lifecycle_app;

select is(lifecycle.webhook_address_refusal(a::inet), r, a || ': ' || r)
  from (values
    ('192.0.0.192', 'reserved for IETF protocol assignments (192.0.0.0/24, where some cloud metadata services answer)'),
    ('192.0.0.8', 'the IPv4 dummy address (192.0.0.8)'),
    ('192.0.0.3', 'the IPv4 service continuity prefix (192.0.0.0/29, DS-Lite)'),
    ('::ffff:198.18.0.1', 'reserved for benchmarking (198.18.0.0/15)'),
    ('64:ff9b::c000:c0', 'reserved for IETF protocol assignments (192.0.0.0/24, where some cloud metadata services answer)'),
    ('255.255.255.255', 'limited broadcast (255.255.255.255)'),
    ('250.1.2.3', 'reserved (240.0.0.0/4, broadcast included)'),
    ('2001:2::1', 'reserved for benchmarking (2001:2::/48)'),
    ('2001:1::1', 'reserved for IETF protocol assignments (2001::/23)')
  ) as c(a, r);
select is(lifecycle.webhook_address_refusal('8.8.8.8'), null, '8.8.8.8: public');
reset role;

select * from finish();
rollback;
