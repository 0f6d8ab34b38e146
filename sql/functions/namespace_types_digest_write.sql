-- Writes the digest of lifecycle.namespace_types, as states_digest_write does for the states (its
-- header says why IMMUTABLE SQL functions, why EXECUTE stays with PUBLIC and why a change an
-- index or a constraint depends on is refused):
--   namespace_type_names()              every type, in the order of their names
--   namespace_type_known(type)          the type has a row
--   namespace_type_root_only(type)      root_only: never below a parent
--   namespace_type_transferable(type)   transferable: may move to another parent
--   namespace_type_can_be_parent(type)  can_be_parent: may have children
-- A type without a row answers as a row with the columns' defaults would (known: false).
-- Two of them are rules every namespace obeys, judged when a row is written (by
-- namespaces_traversal_ids_maintain, the import, an organization's move in), and not again: so a
-- change that would make a namespace break one is refused (2BP01), naming it: a type some
-- namespace has stops being known (removed or renamed), or a type some namespace below a parent has
-- becomes root-only. A type no namespace has changes freely (no check constraint asks the two
-- predicates: one would keep every answer for the types in the table from changing, as below).
-- While an index or a constraint uses a predicate (the backend keeps the expression it
-- inlined when it loaded the index), its answer for every type in the table before the change
-- (and, for an index, after it) must stay as well, and a change that would alter one is refused
-- (2BP01). Adding a type is always possible. Finding the namespaces of a type reads
-- lifecycle.namespaces whole (no index on type), only when such an answer changes, under SHARE:
-- the writes in flight end first, and none starts until this transaction ends.
--
-- Dynamic SQL only from the table's own values, each quoted with %L or passed as a parameter, from
-- the fixed names below, and from the catalog; nothing from a caller.
create or replace function lifecycle.namespace_types_digest_write()
returns void
language plpgsql
set search_path to ''
as $$
declare
  predicate record;
  current_fn regprocedure;
  old_names text[];
  new_names text[];
  compared text[];
  old_answers boolean[];
  new_answers boolean[];
  users text;
  indexed boolean;
  rewritten oid[];
  dependent regprocedure;
  changed text[];
  offender record;
begin
  if pg_catalog.to_regprocedure('lifecycle.namespace_type_names()') is not null then
    execute 'select lifecycle.namespace_type_names()' into old_names;
  end if;
  select coalesce(pg_catalog.array_agg(t.name order by t.name), '{}') into new_names from lifecycle.namespace_types t;

  -- Each predicate's types whose answer differs from a missing row's (listed); fallback is that
  -- answer.
  for predicate in
    select d.fn, d.fallback, d.description,
           coalesce(pg_catalog.array_agg(t.name order by t.name)
                      filter (where t.name is not null
                                and case d.fn when 'namespace_type_known' then true
                                              when 'namespace_type_root_only' then t.root_only
                                              when 'namespace_type_transferable' then t.transferable
                                              when 'namespace_type_can_be_parent' then t.can_be_parent
                                    end is distinct from d.fallback),
                    '{}') as listed
      from (values
        ('namespace_type_known', false, 'Whether this is a namespace type (a row of lifecycle.namespace_types)'),
        ('namespace_type_root_only', false,
         'Whether a namespace of this type is only ever a root (lifecycle.namespace_types.root_only)'),
        ('namespace_type_transferable', true,
         'Whether a namespace of this type may move to another parent (lifecycle.namespace_types.transferable)'),
        ('namespace_type_can_be_parent', true,
         'Whether a namespace of this type may have children (lifecycle.namespace_types.can_be_parent)')
      ) d(fn, fallback, description)
      left join lifecycle.namespace_types t on true
     group by d.fn, d.fallback, d.description
     order by d.fn
  loop
    current_fn := pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(text)', predicate.fn));
    -- The rules of a row: a namespace of a type that stops being known, or one below a parent of a
    -- type that becomes root-only.
    if current_fn is not null and predicate.fn in ('namespace_type_known', 'namespace_type_root_only') then
      execute pg_catalog.format('select pg_catalog.array_agg(n order by n) from pg_catalog.unnest($1) n
                                  where lifecycle.%I(n) is distinct from ((n = any ($2)) <> $3)
                                    and ((n = any ($2)) <> $3) = $4', predicate.fn)
        using coalesce(old_names, '{}'), predicate.listed, predicate.fallback, predicate.fn = 'namespace_type_root_only'
        into changed;
      if changed is not null then
        -- The writes in flight committed, none until this transaction ends: no namespace of such a
        -- type is written unseen by the read below.
        lock table lifecycle.namespaces in share mode;
        select n.id, n.type, n.parent_id into offender
          from lifecycle.namespaces n
         where n.type = any (changed) and (predicate.fn = 'namespace_type_known' or n.parent_id is not null)
         limit 1;
        if found then
          raise exception using errcode = '2BP01',
            message = case predicate.fn
                        when 'namespace_type_known'
                          then pg_catalog.format('cannot remove namespace type %s while namespaces are of it', offender.type)
                        else pg_catalog.format('cannot make namespace type %s root-only while namespaces of it have a parent', offender.type)
                      end,
            detail = pg_catalog.format('namespace_id=%s type=%s parent_id=%s (lifecycle.namespaces); types whose answer would change: %s',
                                       offender.id, offender.type, offender.parent_id, pg_catalog.array_to_string(changed, ', ')),
            hint = case predicate.fn
                     when 'namespace_type_known' then 'A namespace''s type is one of lifecycle.namespace_types: delete those namespaces first, or keep the type.'
                     else 'A root-only type is never below a parent: move those namespaces to the root first, or keep the type as it is.'
                   end;
        end if;
      end if;
    end if;
    if current_fn is not null then
      select pg_catalog.string_agg(coalesce('index ' || i.oid::regclass::text,
                                            pg_catalog.format('constraint %I of %s', k.conname, k.conrelid::regclass)),
                                   ', ' order by i.oid, k.oid),
             coalesce(bool_or(i.oid is not null), false)
        into users, indexed
        from pg_catalog.pg_depend d
        left join pg_catalog.pg_class i on d.classid = 'pg_catalog.pg_class'::regclass and i.oid = d.objid and i.relkind = 'i'
        left join pg_catalog.pg_constraint k on d.classid = 'pg_catalog.pg_constraint'::regclass and k.oid = d.objid
       where d.refclassid = 'pg_catalog.pg_proc'::regclass and d.refobjid = current_fn
         and (i.oid is not null or k.oid is not null);
      if users is not null then
        compared := coalesce(old_names, '{}') || case when indexed then new_names else '{}' end;
        execute pg_catalog.format('select pg_catalog.array_agg(lifecycle.%I(n) order by n) from pg_catalog.unnest($1) n', predicate.fn)
          using compared into old_answers;
        select pg_catalog.array_agg((n = any (predicate.listed)) <> predicate.fallback order by n)
          into new_answers
          from pg_catalog.unnest(compared) n;
        if old_answers is distinct from new_answers then
          raise exception using errcode = '2BP01',
            message = pg_catalog.format('cannot change what lifecycle.%s answers while %s uses it', predicate.fn, users),
            detail = pg_catalog.format('types whose answer would change: %s',
                       (select pg_catalog.string_agg(pg_catalog.format('%s (%s -> %s)', n.name, n.was, n.will), ', ' order by n.name)
                          from rows from (pg_catalog.unnest(compared), pg_catalog.unnest(old_answers), pg_catalog.unnest(new_answers))
                               n(name, was, will)
                         where n.was is distinct from n.will)),
            hint = 'Drop those constraints and indexes, change lifecycle.namespace_types, then add them again (sql/README.md, Where a change goes).';
        end if;
      end if;
    end if;
    if predicate.fallback then
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(type text) returns boolean language sql immutable parallel safe
        return type <> all (%L::text[])$f$, predicate.fn, predicate.listed);
    else
      execute pg_catalog.format($f$
        create or replace function lifecycle.%I(type text) returns boolean language sql immutable parallel safe
        return type = any (%L::text[])$f$, predicate.fn, predicate.listed);
    end if;
    execute pg_catalog.format('comment on function lifecycle.%I(text) is %L', predicate.fn,
      predicate.description || ': a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.');
    rewritten := rewritten || pg_catalog.to_regprocedure(pg_catalog.format('lifecycle.%I(text)', predicate.fn))::oid;
  end loop;

  execute pg_catalog.format($f$
    create or replace function lifecycle.namespace_type_names()
    returns text[]
    language sql
    immutable
    parallel safe
    return %L::text[]$f$, new_names);
  comment on function lifecycle.namespace_type_names() is
    'Every namespace type, in the order of their names: a digest of lifecycle.namespace_types rewritten by its trigger namespace_types_digest, never by hand.';
  rewritten := rewritten || 'lifecycle.namespace_type_names()'::regprocedure::oid;

  for dependent in
    select distinct d.objid::regprocedure
      from pg_catalog.pg_depend d
     where d.classid = 'pg_catalog.pg_proc'::regclass and d.refclassid = 'pg_catalog.pg_proc'::regclass
       and d.refobjid = any (rewritten)
  loop
    execute pg_catalog.format('alter function %s cost %s', dependent,
      (select x.procost from pg_catalog.pg_proc x where x.oid = dependent));
  end loop;
end
$$;
