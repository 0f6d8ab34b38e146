-- The MAC of a fact: HMAC-SHA-256 keyed by lifecycle.fact_key over the fact's canonical text
-- (jsonb prints keys in one order), hex. Facts committed before migration 026 carry the MAC of
-- the construction before it (audit_record verifies those with it).
-- PL/pgSQL for its cached plan: it runs once per fact and once per audit row.
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
