begin;
select plan(4);

-- lifecycle.hmac_sha256 is HMAC-SHA-256: RFC 4231's test cases 1 and 2.
select is(
  pg_catalog.encode(lifecycle.hmac_sha256(pg_catalog.convert_to('Hi There', 'UTF8'), pg_catalog.decode(repeat('0b', 20), 'hex')), 'hex'),
  'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  'RFC 4231 test case 1'
);
select is(
  pg_catalog.encode(lifecycle.hmac_sha256(pg_catalog.convert_to('what do ya want for nothing?', 'UTF8'), pg_catalog.convert_to('Jefe', 'UTF8')), 'hex'),
  '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  'RFC 4231 test case 2'
);

-- A fact's MAC is the HMAC of its text keyed by lifecycle.fact_key, written out here from RFC 2104
-- with pg_catalog's SHA-256 alone: H((K xor opad) || H((K xor ipad) || text)), K padded to 64 bytes.
create temp table fact as
select '{"action": "archived", "namespace_id": 7, "traversal_ids": [1, 7], "full_path": "acme/site", "actor_id": 1001,
         "details": {"from_state": "active", "to_state": "archived"}, "occurred_at": "2026-11-25T09:00:00+00:00"}'::jsonb as f;
create temp table pads as
select (select pg_catalog.decode(string_agg(lpad(to_hex(get_byte(kp, i) # 54), 2, '0'), '' order by i), 'hex')
          from generate_series(0, 63) i) as ipad,
       (select pg_catalog.decode(string_agg(lpad(to_hex(get_byte(kp, i) # 92), 2, '0'), '' order by i), 'hex')
          from generate_series(0, 63) i) as opad
  from (select k.key || pg_catalog.decode(repeat('00', 64 - length(k.key)), 'hex') as kp from lifecycle.fact_key k) k;
select is(
  lifecycle.fact_mac((select f from fact)),
  (select pg_catalog.encode(pg_catalog.sha256(p.opad || pg_catalog.sha256(p.ipad || pg_catalog.convert_to((select f from fact)::text, 'UTF8'))), 'hex')
     from pads p),
  'fact_mac is HMAC-SHA-256 of the fact''s text, keyed by lifecycle.fact_key'
);
select isnt(
  lifecycle.fact_mac((select f from fact)),
  lifecycle.fact_mac((select f || '{"actor_id": 1002}' from fact)),
  'another fact has another MAC'
);

select * from finish();
rollback;
