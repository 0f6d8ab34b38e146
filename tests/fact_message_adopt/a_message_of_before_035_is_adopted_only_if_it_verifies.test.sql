begin;
select plan(9);

-- Facts committed as logical messages before migration 035 and still in the slot at the upgrade:
-- the syncer hands each to fact_message_adopt, which writes it to the outbox when it has
-- fact_emit's shape and the schema's MAC (HMAC, or before 026's cutover the construction before it,
-- written out here), and returns null, writing nothing, for anything else anyone emitted.
update lifecycle.fact_key set legacy_mac_until = now() + interval '1 hour';
create temp table fact as
select '{"action": "archived", "namespace_id": 7, "traversal_ids": [3, 7], "full_path": "a/b", "actor_id": 21,
         "details": {"from_state": "active", "to_state": "archived"}, "occurred_at": "2026-11-25T09:00:00+00:00"}'::jsonb as f;
create temp table signed as
select f || jsonb_build_object('mac', (select pg_catalog.encode(pg_catalog.sha256(k.key || pg_catalog.sha256(
              k.key || pg_catalog.convert_to(f::text, 'UTF8'))), 'hex') from lifecycle.fact_key k)) as legacy,
       f || jsonb_build_object('mac', lifecycle.fact_mac(f)) as hmac,
       f || jsonb_build_object('mac', repeat('0', 64)) as wrong
  from fact;
grant select on signed to lifecycle_worker;

select isnt(lifecycle.fact_message_adopt((select hmac from signed), now()), null, 'a fact with the HMAC is adopted');
select is((select row(action, namespace_id, traversal_ids, full_path, actor_id, details, written_at)::text from lifecycle.facts),
          row('archived', 7::bigint, '{3,7}'::bigint[], 'a/b', 21::bigint,
              '{"from_state": "active", "to_state": "archived"}'::jsonb, '2026-11-25T09:00:00+00:00'::timestamptz)::text,
          'as the fact it was, written when it occurred');
select isnt(lifecycle.fact_message_adopt((select legacy from signed), now() - interval '1 minute'), null,
            'a fact with the MAC of before 026, committed before the cutover, is adopted');
select is(lifecycle.fact_message_adopt((select legacy from signed), now() + interval '2 hours'), null,
          'the same committed after the cutover is not');
select is(lifecycle.fact_message_adopt((select wrong from signed), now() - interval '1 minute'), null,
          'a fact with neither MAC is not, before the cutover either');
select is(lifecycle.fact_message_adopt((select f || '{"traversal_ids": null}' || jsonb_build_object('mac', lifecycle.fact_mac(f || '{"traversal_ids": null}')) from fact), now()),
          null, 'nor one of another shape, signed or not (traversal_ids null)');
select is((select count(*) from lifecycle.facts), 2::bigint, 'only the two adopted are in the outbox');

set local role lifecycle_app;
select throws_ok($$select lifecycle.fact_message_adopt('{}', now())$$, '42501', null, 'the application may not adopt');
reset role;
set local role lifecycle_worker;
select is(lifecycle.fact_message_adopt((select wrong from signed), now()), null, 'the worker (the syncer) may');
reset role;

select * from finish();
rollback;
