begin;
select plan(9);

-- A change writes its fact to the outbox (lifecycle.facts) in its own transaction; facts_record
-- turns it into one audit row with its notifications (the owners on the path, the actor) and a
-- row for the next effective_states_apply, and deletes it, in one transaction: given again, it
-- records nothing. Only the worker may call it.
select lifecycle_test.create_doomed_tree();
delete from lifecycle.facts;
delete from lifecycle.effective_states_pending;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'archived', 1001);
select is((select array_agg(action order by id) from lifecycle.facts), array['archived'],
          'the archive wrote its fact to the outbox');

create temp table given as select array_agg(id) as ids from lifecycle.facts;
grant select on given to lifecycle_app, lifecycle_worker;
set local role lifecycle_app;
select throws_ok($$select * from lifecycle.facts_record((select ids from given))$$, '42501', null,
                 'the application may not record facts');
select throws_ok($$select * from lifecycle.facts$$, '42501', null, 'nor read the outbox');
reset role;

set local role lifecycle_worker;
create temp table recorded as
select * from lifecycle.facts_record((select ids from given), array['1/A0']::pg_lsn[], array[0], array['2026-11-26T10:00:00Z']::timestamptz[]);
reset role;
select is((select action from recorded), 'archived', 'the worker recorded it');
select is((select row(a.idempotency_key, a.source_lsn, a.source_position, a.committed_at, a.namespace_id)::text
             from lifecycle.audit_events a join recorded r on r.audit_event_id = a.id),
          row('fact/' || (select ids[1] from given), '1/A0'::pg_lsn, 0, '2026-11-26T10:00:00Z'::timestamptz,
              lifecycle_test.id_of('acme/doomed'))::text,
          'one audit row, keyed by the fact, at the commit position and time the stream gave');
select is((select array_agg(user_id order by user_id) from lifecycle.notifications n join recorded r using (audit_event_id)),
          array[1001::bigint], 'the owner of acme (and actor) is notified once');
select is((select count(*) from lifecycle.effective_states_pending p join recorded r using (audit_event_id)), 1::bigint,
          'and it waits for the next update of lifecycle.effective_states');
select is((select count(*) from lifecycle.facts), 0::bigint, 'the fact left the outbox');
select is((select count(*) from lifecycle.facts_record((select ids from given))), 0::bigint,
          'given again (a replay, the drain, another syncer), it records nothing');

select * from finish();
rollback;
