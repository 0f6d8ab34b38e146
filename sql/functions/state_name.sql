-- The name of a state code; null when unknown. PL/pgSQL rather than SQL: a SQL function with a SET
-- clause is never inlined and is parsed and planned on every call, and this one runs several times
-- per state change; PL/pgSQL keeps its plan for the session.
create or replace function lifecycle.state_name(code smallint)
returns text
language plpgsql
stable
set search_path to ''
as $$
begin
  return (select s.name from lifecycle.states s where s.code = state_name.code);
end
$$;
