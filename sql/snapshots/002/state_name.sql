-- The name of a state code; null when unknown.
create or replace function lifecycle.state_name(code smallint)
returns text
language sql
stable
set search_path to ''
as $$
  select s.name from lifecycle.states s where s.code = state_name.code
$$;
