begin;
select plan(52);

-- docs/design.md §3 "One gate": a raw UPDATE of lifecycle.namespaces.state is judged by the same matrix
-- as lifecycle.namespace_transition (lifecycle_test.design_matrix: the grid copied from docs/design.md).
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

-- One assertion per cell, in matrix order: refused cells throw NS001; the others succeed.
create function pg_temp.update_every_cell() returns setof text language plpgsql as $$
declare
  m record;
  sql text;
begin
  for m in select * from pg_temp.matrix order by n loop
    sql := format('update lifecycle.namespaces set state = %s where id = %s', lifecycle.state_code(m.to_state), m.project_id);
    if m.expected = 'no' then
      return next throws_ok(sql, 'NS001', null, format('a raw update %s -> %s is refused with NS001', m.from_state, m.to_state));
    else
      return next lives_ok(sql, format('a raw update %s -> %s %s', m.from_state, m.to_state,
                                       case m.expected when 'yes' then 'is allowed' else 'is a no-op' end));
    end if;
  end loop;
end
$$;
select * from pg_temp.update_every_cell();

select bag_eq(
  $$select m.from_state, m.to_state, lifecycle.state_name(p.state)
      from pg_temp.matrix m join lifecycle.namespaces p on p.id = m.project_id$$,
  $$select m.from_state, m.to_state,
           lifecycle.state_name(lifecycle.state_code(case m.expected when 'yes' then m.to_state else m.from_state end))
      from pg_temp.matrix m$$,
  'afterwards every allowed cell''s project is in the target state and every other one is still in its from state'
);

select bag_eq(
  $$select m.from_state as cell_from, m.to_state as cell_to, h.from_state as from_code, h.to_state as to_code,
           h.source
      from lifecycle.namespace_state_updates h
      join pg_temp.matrix m on m.project_id = h.namespace_id
     where h.id > (select last_id from pg_temp.baseline)$$,
  $$select m.from_state as cell_from, m.to_state as cell_to,
           lifecycle.state_code(m.from_state) as from_code, lifecycle.state_code(m.to_state) as to_code,
           'sql' as source
      from pg_temp.matrix m where m.expected = 'yes'$$,
  'exactly the allowed raw updates wrote a history row, with source sql (no-ops and refusals wrote none)'
);

select * from finish();
rollback;
