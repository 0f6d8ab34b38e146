-- Step 0.5 of the global lock order (namespace_lock_path): the legacy rows of a namespace in the
-- tables of the bridges that speak for it, before any lock of the namespace itself. An
-- application's legacy UPDATE holds its row before its bridge trigger reaches the namespace, so an
-- API change that held the namespace first and then waited for that row in its write-back
-- deadlocked with the application's next bridged write (40P01); taking the rows first makes the
-- API change wait for the application's transaction instead, holding nothing it needs. FOR NO KEY
-- UPDATE, the lock the write-back's UPDATE takes, which a foreign key's check (FOR KEY SHARE of,
-- say, a project row an issue references) does not meet; FOR UPDATE on an existence bridge's
-- rows, which the write-back deletes. Tables in oid order, so two API changes take them alike.
-- Broken bridges are skipped (legacy_bridge_usable decides about them when the bridge is used).
-- Called by namespace_lock when bridges exist.
create function lifecycle.legacy_bridge_lock(ns_id bigint, ns_type text)
returns void
language plpgsql
-- Definer: locks rows of the legacy tables, which the bridge's triggers write as the schema's owner.
security definer
set search_path to ''
as $$
declare
  b lifecycle.legacy_bridges;
  ns_col name;
begin
  -- One statement a table (the bridges of one table name the same rows; the strongest lock).
  for b in select distinct on (x.source::oid, x.namespace_attnum) *
             from lifecycle.legacy_bridges x
            where x.namespace_types is null or ns_type = any (x.namespace_types)
            order by x.source::oid, x.namespace_attnum, x.kind = 'exists' desc, x.id loop
    select a.attname into ns_col
      from pg_catalog.pg_attribute a
     where a.attrelid = b.source and a.attnum = b.namespace_attnum and not a.attisdropped
       and a.atttypid = any (array['int2', 'int4', 'int8']::regtype[]);
    continue when ns_col is null;
    execute pg_catalog.format('select from %s where %I = $1 for %s', b.source, ns_col,
                              case b.kind when 'exists' then 'update' else 'no key update' end)
      using ns_id;
  end loop;
end
$$;
