-- Why a path is refused (NS010), or null when it is a valid path for a namespace below parent_id
-- (null: a root): a valid slug (path_slug_refusal) that is not a reserved name
-- (lifecycle.reserved_paths) for its level. PL/pgSQL for its cached plan: every created, renamed
-- or moved namespace asks it.
create or replace function lifecycle.path_refusal(path text, parent_id bigint)
returns text
language plpgsql
stable
set search_path to ''
as $$
begin
  return coalesce(lifecycle.path_slug_refusal(path),
    case when exists (select from lifecycle.reserved_paths r
                       where r.path = path_refusal.path and (r.scope = 'any' or path_refusal.parent_id is null))
      then pg_catalog.format('path %L is reserved', path) end);
end
$$;
