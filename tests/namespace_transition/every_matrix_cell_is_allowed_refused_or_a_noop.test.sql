begin;
select plan(53);

-- docs/design.md §3's transition matrix (lifecycle_test.design_matrix: the grid copied from docs/design.md), one
-- cell per project, each under its own organization, brought to the cell's from state.
create table pg_temp.matrix as
select m.n, m.from_state, m.to_state, m.expected,
       lifecycle_test.create_in_state(
         lifecycle_test.create_namespace(null, 'organization', 'm-' || m.n), 'p', m.from_state) as project_id
  from lifecycle_test.design_matrix() m;

select is(
  (select count(*) from pg_temp.matrix m join lifecycle.namespaces p on p.id = m.project_id
    where p.state = lifecycle.state_code(m.from_state)),
  49::bigint,
  'setup: each of the 49 cells has a project in the cell''s from state'
);

create table pg_temp.baseline as select coalesce(max(id), 0) as last_id from lifecycle.namespace_state_updates;
create table pg_temp.returned (cell int, namespace_id bigint, from_state text, to_state text,
                               effective_state text, changed boolean);

-- One assertion per cell, in matrix order: refused cells throw NS001; the others succeed (their
-- returned row is kept for the checks below).
create function pg_temp.attempt_every_cell() returns setof text language plpgsql as $$
declare
  m record;
begin
  for m in select * from pg_temp.matrix order by n loop
    if m.expected = 'no' then
      return next throws_ok(
        format('select * from lifecycle.namespace_transition(%s, %L, null)', m.project_id, m.to_state),
        'NS001', null,
        format('%s -> %s is refused with NS001', m.from_state, m.to_state));
    else
      return next lives_ok(
        format('insert into pg_temp.returned select %s, t.* from lifecycle.namespace_transition(%s, %L, null) t',
               m.n, m.project_id, m.to_state),
        format('%s -> %s %s', m.from_state, m.to_state,
               case m.expected when 'yes' then 'is allowed' else 'is an idempotent no-op' end));
    end if;
  end loop;
end
$$;
select * from pg_temp.attempt_every_cell();

select bag_eq(
  $$select m.from_state, m.to_state, lifecycle.state_name(p.state)
      from pg_temp.matrix m join lifecycle.namespaces p on p.id = m.project_id$$,
  $$select m.from_state, m.to_state,
           lifecycle.state_name(lifecycle.state_code(case m.expected when 'yes' then m.to_state else m.from_state end))
      from pg_temp.matrix m$$,
  'afterwards every allowed cell''s project is in the target state and every other one is still in its from state'
);

select bag_eq(
  $$select m.from_state as cell_from, m.to_state as cell_to, r.namespace_id = m.project_id as same_namespace,
           lifecycle.state_code(r.from_state) as from_code, lifecycle.state_code(r.to_state) as to_code, r.changed
      from pg_temp.returned r join pg_temp.matrix m on m.n = r.cell$$,
  $$select m.from_state as cell_from, m.to_state as cell_to, true as same_namespace,
           lifecycle.state_code(m.from_state) as from_code, lifecycle.state_code(m.to_state) as to_code,
           m.expected = 'yes' as changed
      from pg_temp.matrix m where m.expected <> 'no'$$,
  'an allowed transition returns changed = true, a same-state one changed = false, both with the from and to states'
);

select bag_eq(
  $$select m.from_state as cell_from, m.to_state as cell_to, h.from_state as from_code, h.to_state as to_code
      from lifecycle.namespace_state_updates h
      join pg_temp.matrix m on m.project_id = h.namespace_id
     where h.id > (select last_id from pg_temp.baseline)$$,
  $$select m.from_state as cell_from, m.to_state as cell_to,
           lifecycle.state_code(m.from_state) as from_code, lifecycle.state_code(m.to_state) as to_code
      from pg_temp.matrix m where m.expected = 'yes'$$,
  'exactly the allowed cells wrote a history row (same-state no-ops and refusals wrote none)'
);

select * from finish();
rollback;
