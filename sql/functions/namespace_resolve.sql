-- Resolve a full path (case-insensitive, surrounding slashes ignored) to a live namespace: its id,
-- its canonical full path (canonical_path), and whether a redirect was followed. A live namespace
-- at the path wins; else the longest prefix with a redirect (the newest, for a path used more than
-- once) rewrites the path to where that namespace is now, keeping the rest (so a descendant's old
-- path leads to the descendant), and the rewritten path is resolved again: a path renamed and then
-- moved resolves through both (at most 16 hops). A redirect into a namespace pending deletion, or a
-- path that leads nowhere, resolves as not found: no row.
--
-- Every legacy path resolves to what it named, case included (docs/design.md §10.1): a segment
-- with capitals is first looked up as given, below the path walked so far, among the redirects of
-- legacy paths (kind import, which keep a legacy path's case where folding it would find another
-- namespace: a user `ACME` beside a group `acme`, projects `Docs` and `docs`); only then is its
-- case folded. A path without capitals (the usual one) costs nothing more; each segment with
-- capitals, one probe of the redirects' index.
--
-- Bounded and linear: a path deeper than lifecycle.namespace_max_depth() segments, or longer than
-- such a path can be (segments of at most 100 characters), is refused with NS010 before any
-- lookup; each hop is one index probe per segment walked and one probe for all prefixes at once.
-- Needs no privilege beyond SELECT on the tables it reads, so it runs as the caller (granted to
-- lifecycle_app and lifecycle_worker).
create or replace function lifecycle.namespace_resolve(full_path text)
returns table (namespace_id bigint, canonical_path text, redirected boolean)
language plpgsql
stable
set search_path to ''
as $$
#variable_conflict use_variable
declare
  max_depth constant int := lifecycle.namespace_max_depth();
  segments text[];
  exact text[];
  depth int;
  seg text;
  current_id bigint;
  walked int;
  prefixes text[];
  target bigint;
  matched text;
  hops int := 0;
  exact_hit boolean;
begin
  if full_path is null then
    return;
  end if;
  -- Refused before it is even split: max_depth segments of 100 characters and their slashes,
  -- and the surrounding slashes the lookup ignores.
  if pg_catalog.char_length(full_path) > max_depth * 101 + 1 then
    raise exception using errcode = 'NS010', message = 'path is too long to resolve',
      detail = pg_catalog.format('length=%s max_length=%s', pg_catalog.char_length(full_path), max_depth * 101 + 1),
      hint = pg_catalog.format('A full path has at most %s segments of at most 100 characters.', max_depth);
  end if;
  segments := pg_catalog.string_to_array(pg_catalog.btrim(pg_catalog.lower(full_path), '/'), '/');
  exact := pg_catalog.string_to_array(pg_catalog.btrim(full_path, '/'), '/');
  if coalesce(pg_catalog.cardinality(segments), 0) > max_depth then
    raise exception using errcode = 'NS010', message = 'path is too deep to resolve',
      detail = pg_catalog.format('segments=%s max_depth=%s', pg_catalog.cardinality(segments), max_depth),
      hint = pg_catalog.format('A full path has at most %s segments.', max_depth);
  end if;
  loop
    depth := coalesce(pg_catalog.cardinality(segments), 0);
    if depth = 0 then
      return;
    end if;
    -- Walk from the root through the unique index of live paths, one probe per segment, as far
    -- as the path is live. A segment with capitals is first looked up as given below the path
    -- walked so far among the redirects of legacy paths (kind import).
    current_id := null;
    walked := 0;
    exact_hit := false;
    foreach seg in array segments loop
      if seg <> exact[walked + 1] and hops < 16 then
        select r.namespace_id into target
          from lifecycle.namespace_redirects r
         where r.old_full_path = case when walked = 0 then '' else pg_catalog.array_to_string(segments[1:walked], '/') || '/' end
                                 || exact[walked + 1]
           and r.kind = 'import'
         order by r.id desc
         limit 1;
        exact_hit := found;
        exit when exact_hit;
      end if;
      select n.id into current_id
        from lifecycle.namespaces n
       where coalesce(n.parent_id, 0) = coalesce(current_id, 0)
         and n.path = seg
         and lifecycle.state_path_live(n.state);
      exit when not found;
      walked := walked + 1;
    end loop;
    if exact_hit then
      -- Into a namespace pending deletion (it, or an ancestor): not found.
      if exists (select from lifecycle.namespaces t
                   join lifecycle.namespaces a on a.id = any (t.traversal_ids)
                   join lifecycle.states s on s.code = a.state
                  where t.id = target and s.pending_deletion) then
        return;
      end if;
      exact := pg_catalog.string_to_array(lifecycle.namespace_full_path(target), '/') || exact[walked + 2:depth];
      segments := pg_catalog.string_to_array(pg_catalog.lower(pg_catalog.array_to_string(exact, '/')), '/');
      hops := hops + 1;
      continue;
    end if;
    if walked = depth then
      return query select current_id, lifecycle.namespace_full_path(current_id), hops > 0;
      return;
    end if;
    if hops = 16 then
      return;
    end if;
    -- Every prefix of the path in one probe; the longest with a redirect wins, then the newest.
    select pg_catalog.array_agg(pg_catalog.array_to_string(segments[1:k], '/'))
      into prefixes
      from pg_catalog.generate_series(1, depth) k;
    select r.namespace_id, r.old_full_path into target, matched
      from lifecycle.namespace_redirects r
     where r.old_full_path = any (prefixes)
     order by pg_catalog.char_length(r.old_full_path) desc, r.id desc
     limit 1;
    if not found then
      return;
    end if;
    -- Into a namespace pending deletion (it, or an ancestor): not found, not a longer chain.
    if exists (select from lifecycle.namespaces t
                 join lifecycle.namespaces a on a.id = any (t.traversal_ids)
                 join lifecycle.states s on s.code = a.state
                where t.id = target and s.pending_deletion) then
      return;
    end if;
    segments := pg_catalog.string_to_array(lifecycle.namespace_full_path(target), '/')
                || segments[pg_catalog.cardinality(pg_catalog.string_to_array(matched, '/')) + 1:depth];
    exact := pg_catalog.string_to_array(lifecycle.namespace_full_path(target), '/')
             || exact[pg_catalog.cardinality(pg_catalog.string_to_array(matched, '/')) + 1:depth];
    hops := hops + 1;
  end loop;
end
$$;

comment on function lifecycle.namespace_resolve(text) is
  'Live namespace at a full path, following redirects (longest prefix, tail kept, chains followed); no row when not found; NS010 past the depth limit.';
