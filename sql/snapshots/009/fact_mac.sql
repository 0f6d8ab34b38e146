-- The MAC of a fact: SHA-256 over the key and the SHA-256 of the key and the fact's canonical
-- text (jsonb prints keys in one order), hex. A nested hash, so the fact cannot be extended.
-- PL/pgSQL for its cached plan: it runs once per fact and once per audit row.
create or replace function lifecycle.fact_mac(fact jsonb)
returns text
language plpgsql
stable
security definer
set search_path to ''
as $$
begin
  return (select pg_catalog.encode(pg_catalog.sha256(k.key || pg_catalog.sha256(k.key || pg_catalog.convert_to(fact::text, 'UTF8'))), 'hex')
            from lifecycle.fact_key k);
end
$$;
