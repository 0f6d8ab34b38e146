-- Step 0.5 of the global lock order (namespace_lock_path): the legacy rows of a namespace in the
-- tables of the bridges that speak for it, before any lock of the namespace itself. An
-- application's legacy UPDATE holds its row before its bridge trigger reaches the namespace, so an
-- API change that held the namespace first and then waited for that row in its write-back would
-- deadlock with the application's next bridged write (40P01); taking the rows first makes the
-- API change wait for the application's transaction instead, holding nothing it needs. FOR NO KEY
-- UPDATE, the lock the write-back's UPDATE takes, which a foreign key's check (FOR KEY SHARE of,
-- say, a project row an issue references) does not meet; FOR UPDATE on an existence bridge's
-- rows, which the write-back deletes. Tables in oid order, so two API changes take them alike. The
-- tree bridges' tables too (docs/design.md §10.3): a rename, move or deletion writes the
-- namespace's rows there, which GitLab's own UPDATE holds before its trigger reaches the namespace.
-- Broken bridges are skipped (legacy_bridge_usable decides about them when the bridge is used).
-- Called by namespace_lock when bridges exist.
create or replace function lifecycle.legacy_bridge_lock(ns_id bigint, ns_type text)
returns void
language plpgsql
-- Definer: locks rows of the legacy tables, which the bridge's triggers write as the schema's owner.
security definer
set search_path to ''
as $$
declare
  t record;
begin
  -- One statement a table (the bridges of one table name the same rows; the strongest lock), the
  -- state bridges' tables and the tree bridges' (whose rows of the namespace its tree changes
  -- write) alike.
  for t in select distinct on (x.source::oid, a.attname) x.source, a.attname as ns_col, x.exclusive
             from (select b.source, b.namespace_attnum as attnum, b.kind = 'exists' as exclusive
                     from lifecycle.legacy_bridges b
                    where b.namespace_types is null or ns_type = any (b.namespace_types)
                   union all
                   select tb.source, tb.id_attnum, false
                     from lifecycle.legacy_tree_bridges tb
                    where case when tb.type_attnum is null then tb.types #>> '{}' = ns_type
                               else exists (select from pg_catalog.jsonb_each_text(tb.types) m where m.value = ns_type) end) x
             -- Each bridge's column found by the catalog's index (a lateral probe kept from being
             -- flattened into a join by offset 0): the generic plan of a join hashed all of
             -- pg_attribute, 2.2 M instructions of every change while bridges exist.
             cross join lateral (select a.attname from pg_catalog.pg_attribute a
                                  where a.attrelid = x.source and a.attnum = x.attnum and not a.attisdropped
                                    and a.atttypid = any (array['int2', 'int4', 'int8']::regtype[])
                                 offset 0) a
            order by x.source::oid, a.attname, x.exclusive desc loop
    execute pg_catalog.format('select from %s where %I = $1 for %s', t.source, t.ns_col,
                              case when t.exclusive then 'update' else 'no key update' end)
      using ns_id;
  end loop;
end
$$;
