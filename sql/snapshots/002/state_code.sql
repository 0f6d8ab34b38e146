-- The code of a state name (or of its alias, "active" for ancestor_inherited); null when unknown.
create or replace function lifecycle.state_code(name text)
returns smallint
language sql
stable
set search_path to ''
as $$
  select s.code from lifecycle.states s where state_code.name in (s.name, s.alias)
$$;
