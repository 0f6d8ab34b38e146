-- The MAC of a fact: HMAC-SHA-256 keyed by lifecycle.fact_key over the fact's canonical text
-- (jsonb prints keys in one order), hex. Facts committed before migration 026 carry the MAC of
-- the construction before it (fact_message_adopt verifies those with it). Since migration 035
-- facts are rows only the schema writes, and the MAC only verifies the messages of before it.
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
