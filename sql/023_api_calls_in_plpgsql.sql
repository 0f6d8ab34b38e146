-- namespace_transition and namespace_event become PL/pgSQL (docs/design.md §4): as SQL functions
-- with SET clauses they were parsed and planned on every call; PL/pgSQL keeps its one statement's
-- plan for the session. They return rows of lifecycle.state_change, a composite of the same
-- columns, since PL/pgSQL refuses a parameter and a result column of one name and the parameters
-- keep the API's names (named notation keeps working). Same columns, answers and errors.

create type lifecycle.state_change as (
  namespace_id bigint,
  from_state text,
  to_state text,
  effective_state text,
  changed boolean
);
comment on type lifecycle.state_change is
  'What a state change answers: the namespace, its state before and after, its effective state after, and whether anything changed.';

drop function lifecycle.namespace_transition(bigint, text, bigint, jsonb);
drop function lifecycle.namespace_event(bigint, text, bigint, jsonb);
{{ template "snapshots/023/namespace_transition.sql" . }}
{{ template "snapshots/023/namespace_event.sql" . }}
revoke all on function lifecycle.namespace_transition(bigint, text, bigint, jsonb),
  lifecycle.namespace_event(bigint, text, bigint, jsonb) from public;
grant execute on function lifecycle.namespace_transition(bigint, text, bigint, jsonb),
  lifecycle.namespace_event(bigint, text, bigint, jsonb) to lifecycle_app, lifecycle_worker;

---- create above / drop below ----

drop function lifecycle.namespace_transition(bigint, text, bigint, jsonb);
drop function lifecycle.namespace_event(bigint, text, bigint, jsonb);
drop type lifecycle.state_change;
{{ template "snapshots/002/namespace_transition.sql" . }}
{{ template "snapshots/002/namespace_event.sql" . }}
revoke all on function lifecycle.namespace_transition(bigint, text, bigint, jsonb),
  lifecycle.namespace_event(bigint, text, bigint, jsonb) from public;
grant execute on function lifecycle.namespace_transition(bigint, text, bigint, jsonb),
  lifecycle.namespace_event(bigint, text, bigint, jsonb) to lifecycle_app, lifecycle_worker;
