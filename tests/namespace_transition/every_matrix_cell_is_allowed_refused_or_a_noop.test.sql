begin;
select plan(53);

-- DESIGN §3's transition matrix, written out here on purpose (not read from
-- lifecycle.state_transitions): the point is to check the product against the document.
-- yes = allowed, no = refused with NS001, - = same state (an idempotent no-op). The last column,
-- creation_in_progress, is DESIGN's "nothing ever goes to creation_in_progress".
create table pg_temp.matrix (
  n int generated always as identity,
  from_state text not null,
  to_state text not null,
  expected text not null check (expected in ('yes', 'no', '-')),
  project_id bigint
);
insert into pg_temp.matrix (from_state, to_state, expected)
select r.from_state, c.to_state, r.cells[c.i]
  from (values
    --                         active archived del_sched del_in_prog transfer maint  creation
    ('active',               array['-',   'yes',  'yes',   'no',       'yes',  'yes', 'no']),
    ('archived',             array['yes', '-',    'yes',   'no',       'yes',  'no',  'no']),
    ('creation_in_progress', array['yes', 'no',   'no',    'yes',      'no',   'no',  '-' ]),
    ('deletion_in_progress', array['yes', 'yes',  'yes',   '-',        'no',   'no',  'no']),
    ('deletion_scheduled',   array['yes', 'yes',  '-',     'yes',      'no',   'no',  'no']),
    ('transfer_in_progress', array['yes', 'yes',  'no',    'no',       '-',    'no',  'no']),
    ('maintenance',          array['yes', 'no',   'no',    'no',       'no',   '-',   'no'])
  ) as r(from_state, cells)
 cross join unnest(array['active', 'archived', 'deletion_scheduled', 'deletion_in_progress',
                         'transfer_in_progress', 'maintenance', 'creation_in_progress'])
       with ordinality as c(to_state, i)
 order by r.from_state, c.i;

-- One organization with one project per cell; the project is brought to the cell's from state
-- through allowed transitions (creation_in_progress: created so).
do $$
declare
  m record;
  org bigint;
  walk text[];
  s text;
  project bigint;
begin
  for m in select * from pg_temp.matrix order by n loop
    org := lifecycle_test.create_namespace(null, 'organization',
                                           'm-' || replace(m.from_state, '_', '-') || '-to-' || replace(m.to_state, '_', '-'));
    if m.from_state = 'creation_in_progress' then
      insert into lifecycle.namespaces (parent_id, type, path, name, state)
      values (org, 'project', 'p', 'p', 3)
      returning id into project;
    else
      project := lifecycle_test.create_namespace(org, 'project', 'p');
    end if;
    walk := case m.from_state
              when 'deletion_in_progress' then array['deletion_scheduled', 'deletion_in_progress']
              when 'active' then array[]::text[]
              when 'creation_in_progress' then array[]::text[]
              else array[m.from_state] end;
    foreach s in array walk loop
      perform lifecycle.namespace_transition(project, s, null);
    end loop;
    update pg_temp.matrix set project_id = project where n = m.n;
  end loop;
end
$$;

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
