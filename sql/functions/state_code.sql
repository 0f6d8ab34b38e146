-- The code of a state name (or of its alias, "active" for ancestor_inherited); null when unknown.
-- PL/pgSQL for its cached plan (see state_name).
create or replace function lifecycle.state_code(name text)
returns smallint
language plpgsql
stable
set search_path to ''
as $$
begin
  return (select s.code from lifecycle.states s where state_code.name in (s.name, s.alias));
end
$$;
