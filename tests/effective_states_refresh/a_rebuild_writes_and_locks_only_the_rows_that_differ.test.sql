begin;
select plan(5);

-- The syncer's rebuild at every start, run as the worker (the syncer's role). ON CONFLICT DO UPDATE
-- locks the row it conflicts with before its WHERE is tested: a rebuild that compared there wrote
-- a lock (a WAL record, a dirtied page) for every row that agreed. A row's xmax is set by such a
-- lock, so a row this transaction neither wrote nor locked since has none.
select lifecycle_test.create_mixed_tree();
select lifecycle.effective_states_refresh();
grant usage on schema tap, lifecycle_test to lifecycle_worker;
create temp table before as select e.namespace_id, e.ctid as tid from lifecycle.effective_states e;
grant select on before to lifecycle_worker;

set local role lifecycle_worker;
select lifecycle.effective_states_refresh();
reset role;
select is((select count(*) from lifecycle.effective_states e where e.xmax <> '0'::xid), 0::bigint,
          'a rebuild that changes nothing locks no row');
select is((select count(*) from lifecycle.effective_states e join pg_temp.before b using (namespace_id) where e.ctid <> b.tid),
          0::bigint, 'nor writes one');

-- Rows that differ: one wrong, one missing, one for no namespace.
update lifecycle.effective_states set effective_state = 'archived' where namespace_id = lifecycle_test.id_of('acme/eng');
delete from lifecycle.effective_states where namespace_id = lifecycle_test.id_of('acme/eng/platform');
insert into lifecycle.effective_states values (-1, 'active', 'active', null, false, false, false, 'nowhere');
truncate pg_temp.before;
insert into pg_temp.before select e.namespace_id, e.ctid as tid from lifecycle.effective_states e;

set local role lifecycle_worker;
select lifecycle.effective_states_refresh();
reset role;
select is((select count(*) from lifecycle.effective_states_verify()), 0::bigint,
          'the rows that differed are written: the table equals its definition');
select set_eq(
  $$select e.namespace_id from lifecycle.effective_states e left join pg_temp.before b using (namespace_id)
     where b.tid is distinct from e.ctid$$,
  array[lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng/platform')],
  'only they are: the wrong row and the missing one'
);
-- (An updated row's new version may carry the updater's lock in its xmax; it was written anyway.)
select is((select count(*) from lifecycle.effective_states e
            where e.xmax <> '0'::xid and e.namespace_id not in (lifecycle_test.id_of('acme/eng'), lifecycle_test.id_of('acme/eng/platform'))),
          0::bigint, 'and no other row is locked');

select * from finish();
rollback;
