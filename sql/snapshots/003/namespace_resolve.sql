-- Resolve a full path (case-insensitive, surrounding slashes ignored) to a live namespace: its id,
-- its canonical full path (canonical_path), and whether a redirect was followed. A live namespace
-- at the path wins; else the longest prefix with a redirect (the newest, for a path used more than
-- once) rewrites the path to where that namespace is now, keeping the rest (so a descendant's old
-- path leads to the descendant), and the rewritten path is resolved again: a path renamed and then
-- moved resolves through both (at most 16 hops). A redirect into a namespace pending deletion, or a
-- path that leads nowhere, resolves as not found: no row.
create or replace function lifecycle.namespace_resolve(full_path text)
returns table (namespace_id bigint, canonical_path text, redirected boolean)
language plpgsql
stable
set search_path to ''
as $$
#variable_conflict use_variable
declare
  segments text[] := pg_catalog.string_to_array(pg_catalog.btrim(pg_catalog.lower(full_path), '/'), '/');
  depth int;
  found_id bigint;
  target bigint;
  hops int := 0;
begin
  loop
    depth := coalesce(pg_catalog.cardinality(segments), 0);
    if depth = 0 then
      return;
    end if;
    found_id := lifecycle.namespace_walk(segments);
    if found_id is not null then
      return query select found_id, lifecycle.namespace_full_path(found_id), hops > 0;
      return;
    end if;
    if hops = 16 then
      return;
    end if;
    target := null;
    for k in reverse depth..1 loop
      select r.namespace_id into target
        from lifecycle.namespace_redirects r
       where r.old_full_path = pg_catalog.array_to_string(segments[1:k], '/')
       order by r.id desc
       limit 1;
      if found then
        -- Into a namespace pending deletion (it, or an ancestor): not found, not a longer chain.
        if exists (select from lifecycle.namespaces t
                     join lifecycle.namespaces a on a.id = any (t.traversal_ids)
                     join lifecycle.states s on s.code = a.state
                    where t.id = target and s.pending_deletion) then
          return;
        end if;
        segments := pg_catalog.string_to_array(lifecycle.namespace_full_path(target), '/') || segments[k + 1:depth];
        exit;
      end if;
    end loop;
    if target is null then
      return;
    end if;
    hops := hops + 1;
  end loop;
end
$$;

comment on function lifecycle.namespace_resolve(text) is
  'Live namespace at a full path, following redirects (longest prefix, tail kept, chains followed); no row when not found.';
