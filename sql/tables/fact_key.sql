-- The key of the facts' MAC (fact_mac, HMAC-SHA-256), one row. Only the schema's owner (the
-- SECURITY DEFINER fact functions) can read it, so a role that calls pg_logical_emit_message itself
-- cannot make a fact the syncer trusts. Facts are rows of lifecycle.facts and carry no MAC: the key
-- verifies the logical messages fact_message_adopt takes into the outbox.
create table lifecycle.fact_key (
  singleton boolean default true not null,
  key bytea not null,
  legacy_mac_until timestamp with time zone,
  constraint fact_key_pkey primary key (singleton),
  constraint fact_key_singleton_check check (singleton)
);
comment on column lifecycle.fact_key.legacy_mac_until is
  'Messages committed before this time may carry the MAC of before migration 026 (SHA-256 of the key and of the key and the text); fact_message_adopt accepts it for them.';

-- gen_random_uuid draws from the server's strong random source: 244 random bits.
insert into lifecycle.fact_key (key)
values (pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text, 'UTF8')));
