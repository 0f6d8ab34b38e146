-- The MAC of a fact: HMAC-SHA-256 keyed by lifecycle.fact_key over the fact's canonical text
-- (jsonb prints keys in one order), hex. Facts are rows only the schema writes, so the MAC only
-- verifies the facts that come as logical messages (fact_message_adopt, which also accepts an
-- older construction for a message committed before lifecycle.fact_key.legacy_mac_until).
-- PL/pgSQL for its cached plan.
create or replace function lifecycle.fact_mac(fact jsonb)
returns text
language plpgsql
stable
security definer
set search_path to ''
as $$
begin
  return (select pg_catalog.encode(lifecycle.hmac_sha256(pg_catalog.convert_to(fact::text, 'UTF8'), k.key), 'hex')
            from lifecycle.fact_key k);
end
$$;
