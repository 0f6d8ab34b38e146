begin;
select plan(5);

-- Facts committed before migration 026 carry the MAC of the construction before HMAC (SHA-256 of the
-- key and of the key and the text, written out here): audit_record records them as the facts they
-- are while they committed before lifecycle.fact_key.legacy_mac_until, and as forged_fact after it.
select isnt((select legacy_mac_until from lifecycle.fact_key), null, 'the migration set the cutover');
update lifecycle.fact_key set legacy_mac_until = now() + interval '1 hour';
create temp table fact as
select '{"action": "archived", "namespace_id": null, "traversal_ids": [], "full_path": null, "actor_id": null,
         "details": {"from_state": "active", "to_state": "archived"}, "occurred_at": "2026-11-25T09:00:00+00:00"}'::jsonb as f;
create temp table signed as
select f || jsonb_build_object('mac', (select pg_catalog.encode(pg_catalog.sha256(k.key || pg_catalog.sha256(
              k.key || pg_catalog.convert_to(f::text, 'UTF8'))), 'hex') from lifecycle.fact_key k)) as legacy,
       f || jsonb_build_object('mac', lifecycle.fact_mac(f)) as hmac,
       f || jsonb_build_object('mac', repeat('0', 64)) as wrong
  from fact;

select lifecycle.audit_record('k/legacy-before', '0/1', 0, now() - interval '1 minute', (select legacy from signed));
select lifecycle.audit_record('k/legacy-after', '0/1', 1, now() + interval '2 hours', (select legacy from signed));
select lifecycle.audit_record('k/hmac-after', '0/1', 2, now() + interval '2 hours', (select hmac from signed));
select lifecycle.audit_record('k/wrong-before', '0/1', 3, now() - interval '1 minute', (select wrong from signed));

select is((select action from lifecycle.audit_events where idempotency_key = 'k/legacy-before'), 'archived',
  'a fact with the legacy MAC committed before the cutover is recorded as what it is');
select is((select action from lifecycle.audit_events where idempotency_key = 'k/legacy-after'), 'forged_fact',
  'the same fact committed after the cutover is forged');
select is((select action from lifecycle.audit_events where idempotency_key = 'k/hmac-after'), 'archived',
  'a fact with the HMAC is recorded as what it is');
select is((select action from lifecycle.audit_events where idempotency_key = 'k/wrong-before'), 'forged_fact',
  'a fact with neither MAC is forged, before the cutover too');

select * from finish();
rollback;
