begin;
select plan(5);

-- What the stream did not bring (committed before the slot existed, left by a syncer that died)
-- is drained from the outbox, oldest first, up to a bound, and only facts old enough: fresher
-- ones are left to the stream, which knows their commit. A drained fact's audit row has no
-- source position and is dated when the fact was written.
select lifecycle_test.create_doomed_tree();
delete from lifecycle.facts;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'archived', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'active', 1001);
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'archived', 1001);
update lifecycle.facts set written_at = written_at - interval '1 minute'
 where id < (select max(id) from lifecycle.facts);

select is((select count(*) from lifecycle.facts_record_pending(10, '30 s')), 2::bigint,
          'the two facts older than 30 s are recorded, not the fresh one');
select is((select array_agg(action order by id) from lifecycle.facts), array['archived'], 'the fresh one waits');
select is((select count(*) from lifecycle.audit_events where source_lsn is null and committed_at < now() - interval '30 s'), 2::bigint,
          'drained rows have no source position and the time their fact was written');
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'active', 1001);
select is((select array_agg(action order by fact_id) from lifecycle.facts_record_pending(1)), array['archived'],
          'with no age, the oldest first, at most the bound');
select is((select count(*) from lifecycle.facts), 1::bigint, 'the rest waits for the next call');

select * from finish();
rollback;
