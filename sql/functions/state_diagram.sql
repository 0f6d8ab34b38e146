-- The state machine as a mermaid stateDiagram, drawn from lifecycle.states and
-- lifecycle.state_transitions (each edge labelled with its audit action): the diagram in
-- docs/states.md is this function's output, so it cannot drift from the rules.
create or replace function lifecycle.state_diagram()
returns text
language sql
stable
set search_path to ''
as $$
  select pg_catalog.concat_ws(E'\n',
    'stateDiagram-v2',
    '    direction LR',
    (select pg_catalog.string_agg(pg_catalog.format('    s%s: %s%s', s.code, s.name, coalesce(' (' || s.alias || ')', '')),
                                  E'\n' order by s.code)
       from lifecycle.states s),
    (select pg_catalog.string_agg(pg_catalog.format('    %s --> s%s: %s', coalesce('s' || t.from_state, '[*]'), t.to_state,
                                                    t.audit_action),
                                  E'\n' order by t.from_state nulls first, t.to_state)
       from lifecycle.state_transitions t))
$$;

comment on function lifecycle.state_diagram() is
  'The state machine as a mermaid stateDiagram (from lifecycle.state_transitions).';
