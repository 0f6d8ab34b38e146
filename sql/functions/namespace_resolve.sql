-- Resolve a full path (case-insensitive, surrounding slashes ignored) to a live namespace: its id,
-- its canonical full path (canonical_path), and whether a redirect was followed. A live namespace at the path wins;
-- else the longest prefix with a redirect (the newest, for a path used more than once) leads to
-- the namespace it was renamed or moved to, and the rest of the path is kept (a descendant's old
-- path resolves to the descendant). A redirect into a namespace pending deletion, or to a tail
-- that no longer exists, resolves as not found: no row.
create function lifecycle.namespace_resolve(full_path text)
returns table (namespace_id bigint, canonical_path text, redirected boolean)
language plpgsql
stable
set search_path to ''
as $$
#variable_conflict use_variable
declare
  segments text[] := pg_catalog.string_to_array(pg_catalog.btrim(pg_catalog.lower(full_path), '/'), '/');
  depth int := coalesce(pg_catalog.cardinality(segments), 0);
  found_id bigint;
  target bigint;
  canonical text;
begin
  if depth = 0 then
    return;
  end if;
  found_id := lifecycle.namespace_walk(segments);
  if found_id is not null then
    return query select found_id, lifecycle.namespace_full_path(found_id), false;
    return;
  end if;
  for k in reverse depth..1 loop
    select r.namespace_id into target
      from lifecycle.namespace_redirects r
     where r.old_full_path = pg_catalog.array_to_string(segments[1:k], '/')
     order by r.id desc
     limit 1;
    if found then
      canonical := lifecycle.namespace_full_path(target)
                   || coalesce('/' || nullif(pg_catalog.array_to_string(segments[k + 1:depth], '/'), ''), '');
      found_id := lifecycle.namespace_walk(pg_catalog.string_to_array(canonical, '/'));
      if found_id is not null then
        return query select found_id, canonical, true;
      end if;
      return;
    end if;
  end loop;
end
$$;

comment on function lifecycle.namespace_resolve(text) is
  'Live namespace at a full path, following redirects (longest prefix, tail kept); no row when not found.';
