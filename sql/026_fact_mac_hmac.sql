-- Facts are signed with HMAC-SHA-256, pgcrypto's hmac(), instead of a construction of our own
-- (docs/design.md §6.2). pgcrypto is used where the database has it; when it has none, it is
-- installed in a schema of its own, lifecycle_pgcrypto (pgcrypto is a trusted extension: the
-- migrating role needs CREATE on the database, not superuser). Facts committed before this
-- migration, and by transactions still open while it ran (within a day), keep verifying with the
-- MAC they were signed with (lifecycle.fact_key.legacy_mac_until; audit_record).

do $$
begin
  if not exists (select from pg_catalog.pg_extension e where e.extname = 'pgcrypto') then
    create schema lifecycle_pgcrypto;
    comment on schema lifecycle_pgcrypto is 'pgcrypto, installed by nslifecycle (migration 026) for the facts'' HMAC.';
    create extension pgcrypto with schema lifecycle_pgcrypto;
  end if;
end
$$;
-- hmac_sha256's body binds pgcrypto's hmac at creation: found in pgcrypto's schema, whichever it
-- is (a catalog name, quoted), for this transaction only.
select pg_catalog.set_config('search_path', pg_catalog.quote_ident(n.nspname), true)
  from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
 where e.extname = 'pgcrypto';
{{ template "functions/hmac_sha256.sql" . }}
reset search_path;
revoke all on function lifecycle.hmac_sha256(bytea, bytea) from public;

alter table lifecycle.fact_key add column legacy_mac_until timestamptz;
update lifecycle.fact_key set legacy_mac_until = pg_catalog.now() + interval '1 day';
comment on column lifecycle.fact_key.legacy_mac_until is
  'Facts committed before this time may carry the MAC of before migration 026 (SHA-256 of the key and of the key and the text); audit_record accepts it for them.';

{{ template "functions/fact_mac.sql" . }}
{{ template "snapshots/026/audit_record.sql" . }}

---- create above / drop below ----

{{ template "snapshots/009/fact_mac.sql" . }}
{{ template "snapshots/012/audit_record.sql" . }}
alter table lifecycle.fact_key drop column legacy_mac_until;
drop function lifecycle.hmac_sha256(bytea, bytea);
-- pgcrypto goes only if this migration installed it (in its own schema), and nothing else has
-- come to depend on it since (then this step fails, and says what).
do $$
begin
  if exists (select from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
              where e.extname = 'pgcrypto' and n.nspname = 'lifecycle_pgcrypto') then
    drop extension pgcrypto;
    drop schema lifecycle_pgcrypto;
  end if;
end
$$;
