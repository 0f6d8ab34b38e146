-- What namespace_transition and namespace_event answer: PL/pgSQL refuses a parameter and a result
-- column of one name, and the parameters keep the API's names (named notation keeps working).
create type lifecycle.state_change as (
  namespace_id bigint,
  from_state text,
  to_state text,
  effective_state text,
  changed boolean
);
comment on type lifecycle.state_change is
  'What a state change answers: the namespace, its state before and after, its effective state after, and whether anything changed.';
