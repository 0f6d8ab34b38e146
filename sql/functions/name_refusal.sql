-- Why a namespace name (the human-readable title, apart from the path) is refused (NS010), or null
-- when it is acceptable: required, not blank, at most 255 characters (GitLab's limit), and free
-- of control and bidirectional formatting characters (character_refusal), which no title needs.
-- Bounded so that no client can make every fact, audit row and delivery that carries
-- the name arbitrarily large (docs/design.md §8). Plain SQL (stable, as format is): inlined into
-- the statements that ask it (an import asks it for every row it reads).
create or replace function lifecycle.name_refusal(name text)
returns text
language sql
stable
parallel safe
return case
  when name is null then 'name is required'
  when pg_catalog.char_length(name) > 255
    then pg_catalog.format('name is %s characters long, more than 255', pg_catalog.char_length(name))
  when pg_catalog.btrim(name) = '' then 'name is blank'
  else lifecycle.character_refusal('name', name)
end;
