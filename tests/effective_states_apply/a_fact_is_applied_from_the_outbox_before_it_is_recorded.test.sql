begin;
select plan(5);

-- A change shows in lifecycle.effective_states without waiting for its audit row: the update
-- reads the facts still in the outbox (marking them applied), so a burst being recorded holds no
-- later change back; recording such a fact then leaves nothing for the next update.
select lifecycle_test.create_doomed_tree();
select lifecycle.effective_states_refresh();
delete from lifecycle.effective_states_pending;
update lifecycle.facts set applied = true;
select lifecycle.namespace_transition(lifecycle_test.id_of('acme/doomed'), 'archived', 1001);

select is((select row(a.facts, a.written > 0)::text from lifecycle.effective_states_apply() a), row(1, true)::text,
          'the archive is applied from the outbox, unrecorded');
select is((select effective_state from lifecycle.effective_states where namespace_id = lifecycle_test.id_of('acme/doomed/g1/a')),
          'archived', 'a project below shows it');
select is((select applied from lifecycle.facts where action = 'archived'), true, 'the fact is marked applied');
select is((select count(*) from lifecycle.facts_record(array(select id from lifecycle.facts where action = 'archived'))), 1::bigint,
          'recorded afterwards');
select is((select count(*) from lifecycle.effective_states_pending), 0::bigint, 'its recording leaves nothing pending');

select * from finish();
rollback;
