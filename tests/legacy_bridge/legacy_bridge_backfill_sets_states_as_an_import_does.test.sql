-- The backfill (docs/design.md §10) gives active bridged namespaces the states their legacy data
-- says, as the import does: one history row from active (source import) with the legacy actor
-- and time, the legacy deletion date, the state a restore returns to; no per-row fact (its rows
-- fire no trigger); namespaces with a state of their own are left alone.
begin;
select plan(5);
select lifecycle_test.create_gitlab_legacy();
select * from lifecycle.namespace_event(lifecycle_test.id_of('acme'), 'maintain', 1001);

-- Legacy data written before the bridge existed (triggers off, as it was).
set local session_replication_role = replica;
update legacy.projects set archived = true, marked_for_deletion_at = '2024-03-04 05:06:07+00', marked_for_deletion_by_user_id = 77
 where id = 501;
update legacy.projects set archived = true where id = 502;
update legacy.namespace_settings set archived = true where namespace_id = lifecycle_test.id_of('acme');
set local session_replication_role = origin;

select results_eq($$select backfilled, refused, refusals from lifecycle.legacy_bridge_backfill()$$,
                  $$values (2::bigint, 0::bigint, '[]'::jsonb)$$, 'two active namespaces get their legacy states, none refused');
select results_eq(
  $$select path, state::int, deletion_scheduled_at, deletion_scheduled_by from lifecycle.namespaces order by id$$,
  $$values ('acme'::text, 6, null::timestamptz, null::bigint), ('eng', 0, null, null),
           ('site', 2, '2024-03-04 05:06:07+00', 77), ('docs', 1, null, null)$$,
  'archived and scheduled adds up to scheduled; acme, in maintenance already, is left alone');
select results_eq(
  format($$select to_state::int, actor_id, source, created_at from lifecycle.namespace_state_updates where namespace_id = %s$$,
         lifecycle_test.id_of('acme/eng/site')),
  $$values (2, 77::bigint, 'import'::text, '2024-03-04 05:06:07+00'::timestamptz)$$,
  'one history row from active, source import, legacy actor and time');
select is((select state_metadata ->> 'preserved_state' from lifecycle.namespace_details where namespace_id = lifecycle_test.id_of('acme/eng/site')),
          'archived', 'a restore returns it to archived, as the legacy flag says');
select results_eq($$select namespace_id, legacy_says, state from lifecycle.legacy_bridge_check()$$,
                  format($$values (%s::bigint, 'archived'::text, 'maintenance'::text)$$, lifecycle_test.id_of('acme')),
                  'what the backfill leaves alone is reported');

select * from finish();
rollback;
