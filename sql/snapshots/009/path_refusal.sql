-- Why a path is refused (NS010), or null when it is a valid path for a namespace below parent_id
-- (null: a root). A path is a lowercase slug: letters, digits, '_', '-', '.', starting and ending
-- with a letter or digit, no '..', at most 100 characters, not ending in .git or .atom, and not a
-- reserved name (lifecycle.reserved_paths) for its level. PL/pgSQL for its cached plan: every
-- created, renamed or moved namespace asks it.
create or replace function lifecycle.path_refusal(path text, parent_id bigint)
returns text
language plpgsql
stable
set search_path to ''
as $$
begin
  return case
    when path is null then 'path is required'
    when pg_catalog.length(path) > 100 then pg_catalog.format('path is %s characters long, more than 100', pg_catalog.length(path))
    when path !~ '^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$'
      then pg_catalog.format('path %L is not a lowercase slug (a-z, 0-9, _ - . inside; a letter or digit at both ends)', path)
    when path ~ '\.\.' then pg_catalog.format('path %L contains ".."', path)
    when path ~ '\.(git|atom)$' then pg_catalog.format('path %L ends in .git or .atom', path)
    when exists (select from lifecycle.reserved_paths r
                  where r.path = path_refusal.path and (r.scope = 'any' or path_refusal.parent_id is null))
      then pg_catalog.format('path %L is reserved', path)
  end;
end
$$;
