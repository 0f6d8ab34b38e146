-- Why a path is not a valid slug, or null: a lowercase slug of letters, digits, '_', '-', '.',
-- starting and ending with a letter or digit, no '..', at most 100 characters, not ending in .git
-- or .atom; a control or bidirectional formatting character is named as such (character_refusal).
-- The slug half of path_refusal (which adds the reserved names of lifecycle.reserved_paths),
-- apart so that a set-based caller (the import) can ask it for thousands of rows: plain SQL,
-- inlined into the statement, where a PL/pgSQL call per row would cost more than the check.
create or replace function lifecycle.path_slug_refusal(path text)
returns text
language sql
stable
parallel safe
return case
  -- A valid path (the common case) costs one match; a refused one is then told apart.
  when path operator(pg_catalog.~) '^(?!.*\.\.)(?!.*\.(git|atom)$)[a-z0-9]([a-z0-9._-]*[a-z0-9])?$'
       and pg_catalog.length(path) <= 100 then null
  when path is null then 'path is required'
  -- Said apart (by its code point), so that the messages below never quote such a character.
  when lifecycle.character_refusal('path', path) is not null then lifecycle.character_refusal('path', path)
  when pg_catalog.length(path) > 100 then pg_catalog.format('path is %s characters long, more than 100', pg_catalog.length(path))
  when path operator(pg_catalog.!~) '^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$'
    then pg_catalog.format('path %L is not a lowercase slug (a-z, 0-9, _ - . inside; a letter or digit at both ends)', path)
  when path operator(pg_catalog.~) '\.\.' then pg_catalog.format('path %L contains ".."', path)
  when path operator(pg_catalog.~) '\.(git|atom)$' then pg_catalog.format('path %L ends in .git or .atom', path)
end;
