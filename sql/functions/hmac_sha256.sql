-- HMAC-SHA-256 (RFC 2104), pgcrypto's: the keyed hash the facts are signed with (fact_mac).
-- pgcrypto lives in whatever schema the database has it in (a forge may have installed it long
-- before this product), so `hmac` is the one name here not written with its schema: the SQL-standard
-- body binds it when the function is created, under the search_path the migration sets to
-- pgcrypto's schema for that moment. Bound, it is a recorded dependency: pgcrypto cannot be dropped
-- from under the facts, and may move to another schema. Plain SQL of one expression, so it is
-- inlined into its caller and costs no call.
create or replace function lifecycle.hmac_sha256(data bytea, key bytea)
returns bytea
language sql
immutable
strict
parallel safe
begin atomic
  select hmac(data, key, 'sha256'::text);
end;
